/**
 * A thin React binding over boardgame.io's vanilla client (what boardgame.io/react's Client does,
 * without its Lobby components, prop-types and cookies: this keeps the play page within budget).
 * Online it talks socket.io to the server; without `multiplayer` the whole match runs in the page
 * (local developer mode), and `onUpdate` lets that page drive a bot.
 */
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, type ComponentType, type ReactNode } from 'react';
import { Client } from 'boardgame.io/client';
import type { Game } from 'boardgame.io';
import type { BoardProps } from 'boardgame.io/react';

import { Pacer, PACES, usePace } from './pace';
import { resyncWhenBehind } from './resync';
import { retryWhenBusy, type Busy } from './retry';
import { ERROR_EVENT, NEXT_EVENT, STATUS_AFTER, STATUS_EVENT, WATCHERS_EVENT, WATCHERS_SAY, type GuardError, type MatchStatus, type NextMatch, type WatcherLine } from '../../protocol/index';

type ClientOpts = Parameters<typeof Client>[0];
type SocketLike = { on(event: string, fn: (...a: never[]) => void): void; off(event: string, fn: (...a: never[]) => void): void; emit(event: string, ...a: unknown[]): void };
/** The spectators' room lines a page keeps (the newest). */
const WATCHER_LINES = 100;
export type GameClientInstance = ReturnType<typeof Client>;

interface Props<G> {
  game: Game<G>;
  board: ComponentType<BoardProps<G>>;
  loading: ComponentType;
  matchID: string;
  playerID?: string;
  credentials?: string;
  multiplayer?: ClientOpts['multiplayer'];
  debug?: ClientOpts['debug'];
  /** Called with the client after every state change (local mode: bots, following the active seat). */
  onUpdate?: (client: GameClientInstance) => void;
  /**
   * Called when the server refuses a request of this client (a move, or the seat's sync) and says why.
   * boardgame.io's transport ignores that event, so it is read from the transport's own socket.
   */
  onServerError?: (error: GuardError, client: GameClientInstance) => void;
  /** The server says a next match exists ("play again" by anyone seated): its id. */
  onNextMatch?: (nextMatchID: string) => void;
  /** The match's clock, stand-ins and who is away, as the server tells it (with its time, `now`). */
  onStatus?: (status: MatchStatus) => void;
  /** The server is busy and the page asks again after a wait (`null`: it answered); see net/retry.ts. */
  onBusy?: (busy: Busy | null) => void;
  /** The seat the computer plays, if any: its decisions are shown one at a time at the chosen pace (net/pace.ts). */
  computerSeat?: (client: GameClientInstance) => string | null;
}

export function GameClient<G>({ game, board: Board, loading: Loading, matchID, playerID, credentials, multiplayer, debug = false, onUpdate, onServerError, onNextMatch, onStatus, onBusy, computerSeat }: Props<G>): ReactNode {
  const client = useMemo(
    () => Client({ game, multiplayer, matchID, playerID: playerID ?? undefined, credentials, debug }),
    // A new client only for a new match; a new seat is switched below (local hotseat keeps its match).
    // The transport and debug options are fixed for a page, so they are left out on purpose.
    [game, matchID, credentials],
  );
  // A layout effect, so the switch lands before the browser paints: with a passive effect the page
  // showed, for a frame, the new state through the old seat's eyes (hotseat following the active seat).
  useLayoutEffect(() => {
    if (client.playerID !== (playerID ?? null)) client.updatePlayerID(playerID ?? null);
  }, [client, playerID]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // A spectator's page: the spectators' room (server/socket/watchers.ts), heard on the transport's socket.
  const [watcherLines, heardWatcher] = useReducer((lines: WatcherLine[], l: WatcherLine | null) => (l === null ? [] : [...lines, l].slice(-WATCHER_LINES)), []);
  const socketNow = useRef<SocketLike | null>(null);
  // The computer's decisions, one at a time (net/pace.ts): the board draws the pacer's state.
  const pause = PACES[usePace()];
  const paceNow = useRef({ pause, computerSeat });
  paceNow.current = { pause, computerSeat };
  const pacer = useMemo(() => new Pacer(() => paceNow.current.computerSeat?.(client) ?? null, () => paceNow.current.pause, rerender), [client]);
  useEffect(() => () => pacer.stop(), [pacer]);
  useEffect(() => pacer.drawn());
  useEffect(() => {
    const unsubscribe = client.subscribe(() => {
      // The page first (it may switch the seat shown, local hotseat), then the state to draw.
      onUpdate?.(client);
      pacer.push(client.getState());
    });
    client.start();
    // boardgame.io 0.50's SocketIO transport keeps its socket.io socket as `socket` once started.
    const socket = (client as unknown as { transport?: { socket?: SocketLike | null } }).transport?.socket;
    const refused = (e: GuardError) => onServerError?.(e, client);
    const next = (n: NextMatch) => n?.matchID === matchID && typeof n.nextMatchID === 'string' && onNextMatch?.(n.nextMatchID);
    const status = (st: MatchStatus) => st?.matchID === matchID && onStatus?.(st);
    // A move's status rides at the end of its patch or update (beside boardgame.io's own listener).
    const afterPatch = (...a: unknown[]) => status(a[STATUS_AFTER.patch] as MatchStatus);
    const afterUpdate = (...a: unknown[]) => status(a[STATUS_AFTER.update] as MatchStatus);
    const watcher = (m: string, l: WatcherLine) => m === matchID && typeof l?.text === 'string' && typeof l.who === 'string' && heardWatcher(l);
    socketNow.current = socket ?? null;
    heardWatcher(null);
    socket?.on(WATCHERS_EVENT, watcher);
    socket?.on(ERROR_EVENT, refused);
    socket?.on(NEXT_EVENT, next);
    socket?.on(STATUS_EVENT, status);
    socket?.on('patch', afterPatch);
    socket?.on('update', afterUpdate);
    const stopResync = resyncWhenBehind(client);
    const stopRetry = onBusy ? retryWhenBusy(client, onBusy) : () => undefined;
    return () => {
      stopResync();
      stopRetry();
      socket?.off(ERROR_EVENT, refused);
      socket?.off(NEXT_EVENT, next);
      socket?.off(STATUS_EVENT, status);
      socket?.off('patch', afterPatch);
      socket?.off('update', afterUpdate);
      socket?.off(WATCHERS_EVENT, watcher);
      socketNow.current = null;
      client.stop();
      unsubscribe();
    };
  }, [client, pacer, onUpdate, onServerError, onNextMatch, onStatus, onBusy, matchID]);
  const state = pacer.shown ?? client.getState();
  if (state === null) return <Loading />;
  const props = {
    ...state,
    isMultiplayer: multiplayer !== undefined,
    moves: client.moves,
    events: client.events,
    matchID: client.matchID,
    playerID: client.playerID,
    reset: client.reset,
    undo: client.undo,
    redo: client.redo,
    log: client.log,
    matchData: client.matchData,
    sendChatMessage: client.sendChatMessage,
    chatMessages: client.chatMessages,
    ...(multiplayer !== undefined && (client.playerID ?? null) === null ? { watchers: { lines: watcherLines, say: (text: string) => socketNow.current?.emit(WATCHERS_SAY, matchID, text) } } : {}),
  } as unknown as BoardProps<G>;
  return <Board {...props} />;
}
