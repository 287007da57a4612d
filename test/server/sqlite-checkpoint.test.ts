/**
 * The embedded store's write-ahead log is checkpointed by a thread of its own, never inside a commit on
 * the event loop (docs/LOAD.md "The tail"): with SQLite's automatic checkpoint off, the log must still
 * stay small while a server writes, and a dead thread must not let it grow without end.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { configureConnection } from '../../server/storage/sqlite';
import { startCheckpointer } from '../../server/storage/sqlite-checkpoint';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A database as the store opens it (WAL, no automatic checkpoint) and a writer of ~1 MB batches. */
function database() {
  const dir = mkdtempSync(join(tmpdir(), 'wg-ckpt-'));
  dirs.push(dir);
  const file = join(dir, 'watergate.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  const insert = db.prepare('INSERT OR REPLACE INTO t (id, body) VALUES (?, ?)');
  let n = 0;
  const batch = db.transaction(() => {
    for (let i = 0; i < 250; i++) insert.run(n++ % 2000, 'x'.repeat(4000));
  });
  return { db, file, wal: () => statSync(`${file}-wal`).size, batch };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the write-ahead log checkpointed by a thread of its own', () => {
  it('keeps the log small while commits never checkpoint it themselves', async () => {
    const withThread = database();
    const ck = startCheckpointer(withThread.file, 50, () => {
      throw new Error('the thread ended');
    });
    const without = database();
    try {
      for (let i = 0; i < 20; i++) {
        withThread.batch();
        without.batch();
        await pause(120);
      }
      // ~20 MB written to each: without a checkpoint it is all in the log; with the thread, the log is
      // reset after each complete checkpoint and holds about what was written since the last one.
      expect(without.wal()).toBeGreaterThan(15 * 2 ** 20);
      expect(withThread.wal()).toBeLessThan(5 * 2 ** 20);
      expect(withThread.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2000 });
    } finally {
      await ck.close();
      withThread.db.close();
      without.db.close();
    }
  });

  it('never cuts the log back inside a commit (the file system frees blocks there: a long pause on a discarding disk)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-ckpt-'));
    dirs.push(dir);
    const file = join(dir, 'watergate.sqlite');
    // The connection exactly as the store configures it, and a second one checkpointing as the thread does.
    const db = new Database(file);
    configureConnection(db);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT OR REPLACE INTO t (id, body) VALUES (?, ?)');
    // Over 70 MB of log in small commits (each writes its pages again), past the 64 MB to which the store
    // once cut the log back after each checkpoint.
    const ten = db.transaction((k: number) => {
      for (let i = 0; i < 10; i++) insert.run((k * 10 + i) % 2000, 'x'.repeat(4000));
    });
    for (let k = 0; k < 2000; k++) ten(k);
    const grown = statSync(`${file}-wal`).size;
    expect(grown).toBeGreaterThan(70 * 10 ** 6);
    const checkpointer = new Database(file);
    try {
      expect(checkpointer.pragma('wal_checkpoint(PASSIVE)')).toEqual([{ busy: 0, log: expect.any(Number), checkpointed: expect.any(Number) }]);
      // The next commit starts the log again from its beginning, and leaves the file as it is.
      insert.run(1, 'y');
      expect(statSync(`${file}-wal`).size).toBe(grown);
      expect(db.prepare('SELECT body FROM t WHERE id = 1').get()).toEqual({ body: 'y' });
    } finally {
      checkpointer.close();
      db.close();
    }
  });

  it('says so when the thread is gone, so the connection can checkpoint itself again', async () => {
    const { db, file } = database();
    const lost: string[] = [];
    // A database file the thread cannot open (a directory): it fails at once, as a crashed thread would.
    const ck = startCheckpointer(join(file, 'missing', 'nowhere.sqlite'), 50, (why) => lost.push(why));
    await expect.poll(() => lost.length).toBe(1);
    await pause(200);
    expect(lost).toHaveLength(1);
    await ck.close();
    db.close();
  });
});
