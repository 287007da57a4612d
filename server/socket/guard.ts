/**
 * Takes over boardgame.io's socket `sync` and `update` handling (0.50.2 has holes, see STACK.md) with a
 * packet middleware on every game socket. What it adds, in order:
 * - payload shapes are checked; bad ones get a `watergate:error` event and go no further;
 * - `sync` for an unknown match creates nothing (stock creates an unlisted match of any size);
 * - a seat's sync needs its credentials; a spectator (no playerID) gets the spectator view;
 * - the `sync` reply's `initialState` goes through the player's view like `state` (stock sends it raw:
 *   decks, bag, hands and the PRNG seed);
 * - a move is accepted only from a socket that synced as that seat, with `payload.playerID` equal to it
 *   (stock authenticates one playerID and lets the reducer use another), only as a move (no events,
 *   undo or redo), only on the current `_stateID`, and only when the rules allow it — otherwise the
 *   client is told why (the engine's `checkMove` text) and, when its state is stale, resynced;
 * - a storage write refused as stale is logged as an error and every client of the match is resynced;
 * - a move boardgame.io drops without a word (its stages disagreeing with the rules) is reported to the
 *   player and logged as an error, and the client resynced, instead of leaving the player waiting.
 * Each move is checked inside boardgame.io's per-match queue, so the check and the move see one state.
 */
import type { Game, Server, State } from 'boardgame.io';
import { Master } from 'boardgame.io/master';
import { getFilterPlayerView } from 'boardgame.io/internal';
import type { SocketIO } from 'boardgame.io/server';
import type { Socket } from 'socket.io';
import { checkMove, type WatergateState } from '../../game/index';
import { authenticateCredentials } from '../auth';
import type { Logger } from '../log';
import { StaleStateError } from '../storage/errors';
import type { MatchStore } from '../storage/store';
import { checkAction, isCredentials, isMatchID, isSeat, type MoveAction } from './args';
import { ERROR_EVENT, type GuardError } from './protocol';
import { internals, ioOf, type ClientInfo } from './transport';

type Filter = ReturnType<typeof getFilterPlayerView>;

export interface GuardHooks {
  /** After every saved move (from a client or the server), outside the match's queue. */
  onMoveSaved?: (event: { matchID: string; state: State }) => void | Promise<void>;
}

export function guardSockets(
  app: object,
  transport: SocketIO,
  game: Game,
  store: MatchStore,
  log: Logger,
  hooks: GuardHooks = {},
): {
  resync(matchID: string): Promise<void>;
  serverMove(matchID: string, playerID: '0' | '1', move: string, arg: unknown): Promise<string | null>;
  stopMoves(): void;
} {
  const t = internals(transport);
  let stopping = false;
  const filter: Filter = getFilterPlayerView(game);
  const auth = { authenticateCredentials: async ({ playerID, credentials, metadata }: { playerID: string; credentials?: string; metadata: Server.MatchData }) => authenticateCredentials(credentials, metadata?.players?.[playerID as unknown as number]) };

  const fail = (socket: Socket, e: GuardError) => {
    socket.emit(ERROR_EVENT, e);
    log.info({ socket: socket.id, matchID: e.matchID, type: e.type, reason: e.message }, 'socket request refused');
  };

  /**
   * boardgame.io's TransportAPI, but `send` also filters initialState through the receiver's view, and
   * broadcasts can be held back (`held`) until the move is saved: stock Master broadcasts first and
   * writes after, so a crash in between showed players a state that was never stored.
   */
  const transportAPI = (matchID: string, socket: Socket | null, held?: unknown[]) => ({
    send: ({ playerID, ...data }: { playerID?: string | null; type: string; args: unknown[] }) => {
      const out = filter(playerID ?? null, data as never) as { type: string; args: unknown[] };
      if (out.type === 'sync') {
        const info = out.args[1] as { initialState?: State };
        if (info.initialState) info.initialState = viewOf(playerID ?? null, matchID, info.initialState);
      }
      socket?.emit(out.type, ...out.args);
    },
    sendAll: (payload: unknown) => (held ? held.push(payload) : t.pubSub.publish(`MATCH-${matchID}`, payload)),
  });
  const viewOf = (playerID: string | null, matchID: string, state: State): State =>
    (filter(playerID, { type: 'update', args: [matchID, state] } as never) as unknown as { args: [string, State] }).args[1];
  const master = (matchID: string, socket: Socket | null, held?: unknown[]) => new Master(game, store, transportAPI(matchID, socket, held) as never, auth as never);

  async function sync(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, playerID, credentials] = args;
    if (!isMatchID(matchID)) return fail(socket, { type: 'bad-request', message: 'sync needs a match ID' });
    if (playerID !== null && playerID !== undefined && !isSeat(playerID))
      return fail(socket, { matchID, type: 'bad-request', message: 'playerID must be "0", "1" or absent (spectator)' });
    if (credentials !== undefined && credentials !== null && !isCredentials(credentials))
      return fail(socket, { matchID, type: 'bad-request', message: 'credentials must be a string' });
    const { metadata } = await store.fetch(matchID, { metadata: true });
    if (!metadata) return fail(socket, { matchID, type: 'not-found', message: `match ${matchID} not found` });
    const seat = isSeat(playerID) ? playerID : null;
    if (seat !== null && !authenticateCredentials(credentials, metadata.players[seat]))
      return fail(socket, { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` });
    // From here on as boardgame.io's own handler, with our Master transport.
    socket.join(matchID);
    t.removeClient(socket.id);
    const m = master(matchID, socket);
    const res = await m.onSync(matchID, seat as string, (credentials ?? undefined) as string, 2);
    if (res && 'error' in res) return fail(socket, { matchID, type: 'unauthorized', message: String(res.error) });
    t.addClient({ socket, matchID, playerID: seat, credentials: (credentials ?? undefined) as string | undefined }, game);
    await m.onConnectionChange(matchID, seat as string, (credentials ?? undefined) as string, true);
  }

  async function update(socket: Socket, args: unknown[]): Promise<void> {
    const [action, stateID, matchID, playerID] = args;
    if (!isMatchID(matchID)) return fail(socket, { type: 'bad-request', message: 'a move needs a match ID' });
    const client: ClientInfo | undefined = t.clientInfo.get(socket.id);
    if (!isSeat(playerID) || !client || client.matchID !== matchID || client.playerID !== playerID)
      return fail(socket, { matchID, type: 'unauthorized', message: 'sync with this seat and its credentials before moving' });
    const bad = checkAction(action);
    if (bad) return fail(socket, { matchID, type: 'bad-request', message: bad });
    const move = action as MoveAction;
    if (move.payload.playerID !== playerID)
      return fail(socket, { matchID, type: 'unauthorized', message: `a move of seat ${playerID} cannot be made as seat ${String(move.payload.playerID)}` });
    if (!Number.isInteger(stateID)) return fail(socket, { matchID, type: 'bad-request', message: 'stateID must be an integer' });
    if (stopping) return fail(socket, { matchID, type: 'server-error', message: 'the server is shutting down: try again in a moment' });

    const refusal = await runMove(matchID, playerID, move.payload, stateID as number, socket);
    if (refusal) fail(socket, refusal);
  }

  /**
   * One move, inside boardgame.io's per-match queue so the checks and the move see one state:
   * credentials (a server move uses the seat's own), the current _stateID, the rules (`checkMove`), then
   * boardgame.io's Master, whose broadcasts go out only once the move is saved. Returns the refusal or
   * null. A stale client is resynced; a write refused by storage resyncs every client of the match.
   */
  async function runMove(
    matchID: string,
    playerID: '0' | '1',
    payload: { type: string; args?: unknown[] | null; credentials?: string },
    stateID: number | null,
    socket: Socket | null,
  ): Promise<GuardError | null> {
    const out = await t.getMatchQueue(matchID).add(async (): Promise<GuardError | null> => {
      const { state, metadata } = await store.fetch(matchID, { state: true, metadata: true });
      if (!state || !metadata) return { matchID, type: 'not-found', message: `match ${matchID} not found` };
      const seat = metadata.players[playerID];
      const credentials = socket ? payload.credentials : seat?.credentials;
      if (!authenticateCredentials(credentials, seat)) return { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${playerID}` };
      if (stateID !== null && state._stateID !== stateID) {
        const client = socket && t.clientInfo.get(socket.id);
        if (client) await resyncSocket(socket, client);
        return { matchID, type: 'stale', message: `your state ${stateID} is out of date (now ${state._stateID}): resyncing` };
      }
      const arg = (payload.args ?? [])[0];
      const why = checkMove(state.G as WatergateState, playerID, payload.type, arg);
      if (why) return { matchID, type: 'invalid-move', message: why };
      const action = { type: 'MAKE_MOVE', payload: { type: payload.type, args: [arg], playerID, credentials } };
      const held: unknown[] = [];
      try {
        const res = await master(matchID, socket, held).onUpdate(action as never, state._stateID, matchID, playerID);
        if (held.length === 0) {
          // boardgame.io dropped the move without a word (its "player not active" and "move not processed"
          // paths return nothing): the rules accepted it, so the stages disagree with the engine's prompt.
          // Say so to the player and in the log, and resync the client, instead of leaving it waiting.
          log.error({ matchID, playerID, move: payload.type, activePlayers: state.ctx.activePlayers, res }, 'move accepted by the rules but not applied by boardgame.io');
          const client = socket && t.clientInfo.get(socket.id);
          if (client) await resyncSocket(socket, client);
          return { matchID, type: 'server-error', message: 'the server could not apply this move: resyncing' };
        }
      } catch (e) {
        if (!(e instanceof StaleStateError)) throw e;
        log.error({ matchID, stored: e.stored, attempted: e.attempted }, 'stale state write refused');
        await resync(matchID);
        return { matchID, type: 'stale', message: 'another move was saved first: resyncing' };
      }
      for (const p of held) t.pubSub.publish(`MATCH-${matchID}`, p); // saved: now tell everyone
      return null;
    });
    if (!t.roomInfo.has(matchID)) t.perMatchQueue.delete(matchID); // a move with nobody connected (a bot's)
    if (out === null && hooks.onMoveSaved) {
      // Outside the queue, so the hook may itself make the next move (a bot answering).
      const { state } = await store.fetch(matchID, { state: true });
      Promise.resolve(hooks.onMoveSaved({ matchID, state })).catch((e: unknown) => log.error({ err: e, matchID }, 'onMoveSaved failed'));
    }
    return out;
  }

  /** A move made by the server itself (e.g. a bot's seat): same checks and broadcasts as a client's. */
  async function serverMove(matchID: string, playerID: '0' | '1', move: string, arg: unknown): Promise<string | null> {
    if (stopping) return 'the server is shutting down';
    const refusal = await runMove(matchID, playerID, { type: move, args: [arg] }, null, null);
    return refusal && refusal.message;
  }

  /** Sends the stored match to one client as a fresh `sync`, filtered for its seat. */
  async function resyncSocket(socket: Socket, client: ClientInfo): Promise<void> {
    const { state, log: lg, metadata, initialState } = await store.fetch(client.matchID, { state: true, log: true, metadata: true, initialState: true });
    if (!state) return;
    const filteredMetadata = Object.values((metadata as Server.MatchData).players).map(({ credentials: _c, ...p }) => p);
    transportAPI(client.matchID, socket).send({
      playerID: client.playerID,
      type: 'sync',
      args: [client.matchID, { state, log: lg, filteredMetadata, initialState }],
    });
  }

  async function resync(matchID: string): Promise<void> {
    for (const id of t.roomInfo.get(matchID) ?? []) {
      const c = t.clientInfo.get(id);
      if (c) await resyncSocket(c.socket, c);
    }
  }

  /** Chat is passed on to boardgame.io only from a synced seat speaking as itself. */
  function chatAllowed(socket: Socket, args: unknown[]): boolean {
    const [matchID, msg] = args as [unknown, { sender?: unknown; payload?: unknown } | undefined];
    const c = t.clientInfo.get(socket.id);
    if (!c || c.matchID !== matchID || !msg || typeof msg !== 'object' || msg.sender !== c.playerID) return false;
    return JSON.stringify(msg.payload ?? null).length <= 2000;
  }

  const nsp = ioOf(app).of(game.name!);
  nsp.on('connection', (socket: Socket) => {
    socket.use((packet, next) => {
      const [event, ...args] = packet as unknown as [string, ...unknown[]];
      const run = (fn: () => Promise<void>) =>
        fn().catch((e: unknown) => {
          log.error({ err: e, event, socket: socket.id }, 'socket handler failed');
          socket.emit(ERROR_EVENT, { type: 'server-error', message: 'the server could not handle this request' } satisfies GuardError);
        });
      if (event === 'sync') void run(() => sync(socket, args));
      else if (event === 'update') void run(() => update(socket, args));
      else if (event === 'chat' && chatAllowed(socket, args)) next();
      else fail(socket, { type: 'bad-request', message: `"${String(event).slice(0, 40)}" is not accepted` });
    });
  });
  return { resync, serverMove, stopMoves: () => void (stopping = true) };
}
