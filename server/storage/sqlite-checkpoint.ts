/**
 * Two things the embedded store needs beside its connection (docs/LOAD.md "The tail"):
 *
 * - **The write-ahead log checkpointed off the event loop.** SQLite's automatic checkpoint runs inside
 *   the commit that crosses `wal_autocheckpoint` pages: at 1,000 matches that was one commit every 3 s
 *   holding the event loop 50–80 ms while it copied ~10,000 pages back to the database — the server's
 *   worst pause, felt by every player of the process. Here a worker thread with a connection of its own
 *   runs a PASSIVE checkpoint every `everyMs`: it never blocks the writer (WAL lets one writer and a
 *   checkpointer work at once) and its copying and fsync run on another core. Should the thread die, the
 *   main connection checkpoints itself again (`onLost`), as before.
 * - **One server per DATA_DIR.** A checkpointer needs the database in normal locking mode (exclusive mode
 *   keeps the log's index in one connection's memory), so the exclusive mode no longer shows a second
 *   server on the same files: a lock file of its own, held in exclusive mode for the process's life, does.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** The thread's program: plain JavaScript (it runs as is under tsx and from the bundle). */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { timeout: 200 });
db.pragma('synchronous = NORMAL');
let busy = false;
const timer = setInterval(() => {
  if (busy) return;
  busy = true;
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { /* busy or closing: the next tick tries again */ }
  busy = false;
}, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'close') return;
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); db.close(); } catch (e) {}
  parentPort.postMessage('closed');
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

/** Starts the checkpointing thread for the database `file`; `onLost` runs if the thread ends on its own. */
export function startCheckpointer(file: string, everyMs: number, onLost: (why: string) => void): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, { eval: true, workerData: { file, module, everyMs } });
  let closing = false;
  const lost = (why: string) => {
    if (closing) return;
    closing = true;
    onLost(why);
  };
  worker.once('error', (e) => lost(e.message));
  worker.once('exit', (code) => lost(`exit ${code}`));
  worker.unref();
  return {
    async close() {
      if (closing) return;
      closing = true;
      await new Promise<void>((resolve) => {
        const done = setTimeout(() => void worker.terminate().then(() => resolve()), 2000);
        worker.once('message', () => {
          clearTimeout(done);
          void worker.terminate().then(() => resolve());
        });
        worker.postMessage('close');
      });
    },
  };
}

/**
 * Holds `dir`'s lock for this process: a small SQLite file in exclusive mode with a write done, so any
 * other connection — another process, or another store in this one — gets SQLITE_BUSY until it closes.
 */
export function lockDataDir(dir: string): Database.Database {
  const lock = new Database(join(dir, 'watergate.lock'), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, since INTEGER)');
    lock.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
    lock.exec('DELETE FROM holder WHERE rowid NOT IN (SELECT max(rowid) FROM holder)');
  } catch (e) {
    lock.close();
    throw e;
  }
  return lock;
}
