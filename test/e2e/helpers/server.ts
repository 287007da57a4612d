/** Starts the real server (server/main.ts, bundled: tools/server-bundle.ts) on a free loopback port with a temp data folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServerProcess } from '../../../tools/cluster';
import { TEST_PASSWORD_COST } from '../../helpers/password';

export interface RunningServer {
  url: string;
  /** kill -9, as a crash: the pages lose the server. */
  crash(): Promise<void>;
  /** Starts it again on the same port and storage. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** The server's last lines of output (its warnings and errors: the file's LOG_LEVEL is warn). */
  output(): string[];
}

/** `extraEnv`: settings of one test file's server (e.g. a feature turned off). */
export async function startServer(clientDir: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'watergate-e2e-data-'));
  const port = await freePort();
  // Every page of a file comes from 127.0.0.1: the per-address limits are raised (test/server/limits.test.ts
  // and socket-limits.test.ts test them); a whole game with reloads, a phone and a rematch opens many sockets.
  const env = { DATA_DIR: dataDir, CLIENT_DIR: clientDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', LIMITS: 'create=10000/60,join=10000/60,api=100000/60,connect=100000/60,sync=100000/60,signup=10000/60,login=10000/60', LEADERBOARD_MIN_GAMES: '1', PASSWORD_COST: String(TEST_PASSWORD_COST), ...extraEnv };
  let p = await startServerProcess(env, port, 60_000);
  return {
    url: p.url,
    async crash() {
      p.proc.kill('SIGKILL');
      await p.exited;
    },
    async restart() {
      p = await startServerProcess(env, port, 60_000);
    },
    output() {
      return p.lines.slice(-40);
    },
    async stop() {
      if (p.proc.exitCode === null && p.proc.signalCode === null) {
        p.proc.kill('SIGTERM');
        const timer = setTimeout(() => p.proc.kill('SIGKILL'), 5000);
        await p.exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
