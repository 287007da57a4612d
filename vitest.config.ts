import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to take longest, started first, roughly longest first. Two workers pull files from one
 * queue, so a long file picked last runs alone while the other core idles. Vitest orders by the durations
 * it cached on earlier runs, and by file size when it has none (a fresh CI checkout): a short file that
 * runs long, like a fuzz set, then comes last. Within each group vitest's own order stands.
 */
const LONG_FIRST: RegExp[] = [
  /^test\/e2e\/play\./, // whole games in the browser
  /^test\/server\/cluster\.test/, // processes behind HAProxy, one killed and replaced
  /^test\/fuzz\/games-/, // about 75 s each at CI's size
  /^test\/e2e\/(clock|online)\./,
  /^test\/bots\/(bgio|browser)\./, // MCTSBot playing whole games; the bot in a worker
  /^test\/e2e\//,
  /^test\/server\/cluster/,
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const path = f.moduleId.slice(this.ctx.config.root.length + 1).replaceAll('\\', '/');
      const i = LONG_FIRST.findIndex((re) => re.test(path));
      return i === -1 ? LONG_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i, r: rank(f) })).sort((a, b) => a.r - b.r || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: run files in parallel, but not more workers than cores.
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
  },
});
