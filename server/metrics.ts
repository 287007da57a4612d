/**
 * /metrics in Prometheus' text format (prom-client). One registry per server, so several servers in
 * one process (the tests) never mix their numbers. Nothing here names a match or a player.
 */
import { promises as fsp } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import client from 'prom-client';

/**
 * Finer than `seconds` below: a move's phases take from tens of microseconds (the engine) to tens of
 * milliseconds (a stalled loop), and the load tool estimates their quantiles from these buckets.
 */
const PHASE_SECONDS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** prom-client's default metrics that read every handle of the process (see createMetrics). */
export const PER_SOCKET_DEFAULTS = ['process_open_fds', 'nodejs_active_handles', 'nodejs_active_handles_total', 'nodejs_active_resources', 'nodejs_active_resources_total'];

export function createMetrics() {
  const registry = new client.Registry();
  // The defaults include the event loop's delay (monitorEventLoopDelay: wg_nodejs_eventloop_lag_p99_seconds,
  // _max_seconds, …, each over the time since the previous scrape) and GC pauses by kind
  // (wg_nodejs_gc_duration_seconds, from a PerformanceObserver), here with the phases' finer buckets.
  client.collectDefaultMetrics({ register: registry, prefix: 'wg_', gcDurationBuckets: PHASE_SECONDS });
  // Five of the defaults walk every socket on the event loop at each scrape: the open descriptors listed
  // from /proc/self/fd with readdirSync, the active handles and resources as an object or a string per
  // socket. At 10,000 matches (20,000 sockets) that held the loop ~40 ms a scrape, every other match's
  // moves waiting (docs/LOAD.md "/metrics without a stop"). The handles and resources are dropped
  // (wg_open_sockets counts the sockets); the open descriptors, what a node at scale runs out of first,
  // are listed off the loop, in libuv's threads.
  for (const name of PER_SOCKET_DEFAULTS) registry.removeSingleMetric(`wg_${name}`);
  if (process.platform === 'linux') {
    // Reads at once share one listing: a flood of scrapes (loopback, or a leaked METRICS_TOKEN) starts
    // one at a time, not one each in libuv's four threads that password hashing also needs.
    let listing: Promise<number> | null = null;
    const openFds = () =>
      (listing ??= fsp
        .readdir('/proc/self/fd')
        .then((l) => l.length, () => 0)
        .finally(() => (listing = null)));
    new client.Gauge({
      name: 'wg_process_open_fds',
      help: 'Number of open file descriptors.',
      registers: [registry],
      async collect() {
        this.set(await openFds());
      },
    });
  }
  const seconds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
  const m = {
    registry,
    moves: new client.Counter({ name: 'wg_moves_total', help: 'Moves saved and delivered by this process', registers: [registry] }),
    moveSeconds: new client.Histogram({ name: 'wg_move_duration_seconds', help: 'From receiving a move to delivering its state (saved moves)', buckets: seconds, registers: [registry] }),
    /**
     * A move's phases (docs/LOAD.md "The load tool"): queue (received → its turn in the match's queue),
     * engine (check and apply), commit (the storage write), delivery (views, patches and socket writes of
     * this process). Two performance.now() differences a phase: cheap beside a move's ~0.5 ms.
     */
    movePhase: new client.Histogram({ name: 'wg_move_phase_seconds', help: "A move's time by phase: queue, engine, commit, delivery", labelNames: ['phase'], buckets: PHASE_SECONDS, registers: [registry] }),
    refusals: new client.Counter({ name: 'wg_refusals_total', help: 'Requests refused, by type', labelNames: ['type'], registers: [registry] }),
    staleWrites: new client.Counter({ name: 'wg_stale_writes_total', help: 'Move writes refused by storage because another writer got there first', registers: [registry] }),
    storageSeconds: new client.Histogram({ name: 'wg_storage_duration_seconds', help: 'Storage operations, by operation (op=move: one transaction, of every move of a turn of the event loop on the embedded store)', labelNames: ['op'], buckets: seconds, registers: [registry] }),
    botThinkSeconds: new client.Histogram({ name: 'wg_bot_think_seconds', help: 'Bot decisions (search time, worker threads)', buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5], registers: [registry] }),
    busPublished: new client.Counter({ name: 'wg_bus_published_total', help: 'Messages published to other processes', registers: [registry] }),
    busFailed: new client.Counter({ name: 'wg_bus_publish_failures_total', help: 'Messages that could not be published (Redis down)', registers: [registry] }),
    staleRemoved: new client.Counter({ name: 'wg_stale_matches_removed_total', help: 'Unfinished matches removed after STALE_HOURS without activity or a connected player', registers: [registry] }),
    busReceived: new client.Counter({ name: 'wg_bus_received_total', help: 'Messages from other processes, by type', labelNames: ['type'], registers: [registry] }),
    webhooks: new client.Counter({ name: 'wg_webhooks_total', help: 'Turn notifications to webhooks: sent, failed (after retries) or refused (not a public address)', labelNames: ['result'], registers: [registry] }),
    pushes: new client.Counter({ name: 'wg_pushes_total', help: 'Web pushes: sent (accepted by the push service), gone (404/410: the subscription dropped), failed (another answer, no answer) or refused (not a public address)', labelNames: ['result'], registers: [registry] }),
    /** Set by the server once its parts exist: they are read at scrape time. */
    gauges(read: { sockets: () => number; matches: () => number; busUp: () => number }) {
      new client.Gauge({ name: 'wg_open_sockets', help: 'Game sockets open on this process', registers: [registry], collect() { this.set(read.sockets()); } });
      new client.Gauge({ name: 'wg_active_matches', help: 'Matches held in memory by this process', registers: [registry], collect() { this.set(read.matches()); } });
      new client.Gauge({ name: 'wg_bus_up', help: '1 when the bus to other processes works (or none is configured), 0 when it is down', registers: [registry], collect() { this.set(read.busUp()); } });
    },
  };
  // The longest GC pause since the previous scrape (the histogram above cannot say its maximum). One
  // observer a registry, like prom-client's own for the histogram: both live as long as the process.
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration / 1000);
  });
  gc.observe({ entryTypes: ['gc'] });
  new client.Gauge({
    name: 'wg_gc_pause_max_seconds',
    help: 'The longest garbage collection pause since the previous scrape',
    registers: [registry],
    collect() {
      this.set(gcMax);
      gcMax = 0;
    },
  });
  return m;
}

export type Metrics = ReturnType<typeof createMetrics>;
