/**
 * A busy server ("unavailable": its storage is away; "rate-limited": this client asked too fast) refused
 * a request but changed nothing: the page asks the same again after a wait — the same move on the same
 * state, or the sync it has not had yet — until the server answers otherwise, so play resumes by itself
 * when the server does. The same move on the same state can never be played twice: once one copy is
 * saved, the state has moved on and any other copy is refused as stale.
 *
 * The wait is the server's `retryAfterSeconds` when it gives one, else 1 s doubling to 10 s; `onBusy`
 * tells the page (its banner) when a retry is waiting and when the server answered again.
 */
import { ERROR_EVENT, type GuardError } from '../../protocol/index';

type Socket = {
  emit(event: string, ...args: unknown[]): unknown;
  on(e: string, f: (...a: never[]) => void): void;
  off(e: string, f: (...a: never[]) => void): void;
};
type Client = { getState(): { _stateID: number } | null; subscribe(fn: () => void): () => void };

export interface Busy {
  type: 'unavailable' | 'rate-limited';
  /** Seconds until the request is asked again. */
  seconds: number;
}

const MAX_WAIT_S = 10;

export function retryWhenBusy(client: Client, onBusy: (b: Busy | null) => void): () => void {
  const socket = (client as unknown as { transport?: { socket?: Socket | null } }).transport?.socket;
  if (!socket) return () => undefined;
  // What this page last asked: boardgame.io's transport emits these itself, so they are read on the way out.
  let lastUpdate: unknown[] | null = null;
  let lastSync: unknown[] | null = null;
  const emit = socket.emit.bind(socket);
  socket.emit = (event: string, ...args: unknown[]) => {
    if (event === 'update') lastUpdate = args;
    if (event === 'sync') lastSync = args;
    return emit(event, ...args);
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let busy = false;
  const settle = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    failures = 0;
    if (busy) onBusy(null);
    busy = false;
  };
  const onError = (e: GuardError) => {
    if (!e || (e.type !== 'unavailable' && e.type !== 'rate-limited')) {
      lastUpdate = null; // answered: not to be asked again
      return settle();
    }
    const state = client.getState();
    // A move is asked again only on the state it was made on; without a state yet, the sync.
    const again = state === null ? lastSync : lastUpdate && lastUpdate[1] === state._stateID ? lastUpdate : null;
    if (!again) return settle();
    const given = typeof e.retryAfterSeconds === 'number' && e.retryAfterSeconds > 0 ? e.retryAfterSeconds : 0;
    const seconds = Math.min(MAX_WAIT_S, Math.ceil(given || 2 ** failures));
    failures++;
    busy = true;
    onBusy({ type: e.type, seconds });
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const now = client.getState();
      if ((again === lastSync && now === null) || (again === lastUpdate && now?._stateID === again[1])) emit(again === lastSync ? 'sync' : 'update', ...again);
      else settle();
    }, seconds * 1000);
  };
  // Any new state is the server answering again.
  let stateID = client.getState()?._stateID ?? null;
  const unsubscribe = client.subscribe(() => {
    const now = client.getState()?._stateID ?? null;
    if (now === stateID) return;
    stateID = now;
    settle();
  });
  socket.on(ERROR_EVENT, onError as never);
  return () => {
    if (timer) clearTimeout(timer);
    socket.off(ERROR_EVENT, onError as never);
    socket.emit = emit;
    unsubscribe();
  };
}
