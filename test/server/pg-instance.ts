/**
 * A PostgreSQL server of the test's own (never the machine's shared one), on a free port in a temp
 * folder, that the test may stop, start again, freeze (SIGSTOP: a hung database, not a refused port)
 * and thaw. initdb refuses to run as root: everything runs as the `postgres` user.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../tools/cluster';

const binDir = (): string | null => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
};

/** Whether this machine can run a PostgreSQL of a test's own (binaries, a postgres user, root to switch to it). */
export const canRunOwnPostgres = (): boolean => binDir() !== null && process.getuid?.() === 0 && spawnSync('id', ['postgres']).status === 0;

export interface PgInstance {
  url: string;
  stop(): void;
  start(): void;
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

function asPostgres(bin: string, args: string[]): void {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error}`);
}

export async function startPgInstance(): Promise<PgInstance> {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'wg-pg-'));
  chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const ctl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = () => ctl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`, '-l', join(dir, 'log'), '-w', 'start');
  // The postmaster and every backend it started: all of them, or the open connections would still answer.
  const pids = (): number[] => {
    const main = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(main)], { encoding: 'utf8' }).stdout.split('\n').map(Number).filter((n) => n > 0);
    return [main, ...children];
  };
  let frozen: number[] = [];
  const thaw = () => {
    for (const pid of frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone meanwhile
      }
    }
    frozen = [];
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => ctl('-m', 'fast', '-w', 'stop'),
    freeze() {
      frozen = pids();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw,
    destroy() {
      thaw();
      try {
        ctl('-m', 'immediate', '-w', 'stop');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
