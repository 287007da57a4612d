/**
 * Turn notifications — the one decision (server/notices/): when a decision becomes a seat's and none of
 * that seat's sockets is connected, every notice channel hears of it (the seat's or account's webhook:
 * channel.ts; e-mail: server/mail/; push) with the match's link. Sent by the process that saved the move (the `move` reason), so several processes
 * never send the same notification twice; a decision that stays with the same seat (several steps of one
 * turn, a stand-in playing for an absent seat) sends nothing new.
 *
 * The start of a game has no move: the join route of the process that seated the second player calls
 * `joined` (a 'meta' state hook would run in every process holding the match, and in none when no
 * process holds it in memory).
 */
import { botLevelOf, isSeat, openSeat, seatEntry } from '../../protocol/index';
import type { Logger } from '../log';
import type { MatchService, MatchView } from '../match/service';
import type { MatchData } from '../storage/types';
import type { Notices } from '../notices/index';

/** What a seat registered (see register.ts): the webhook and the origin of the page it registered from. */
export interface SeatNotify {
  webhook: string;
  base?: string;
}

/** The account holding a seat (server-set `data.account`), whose settings say where to notify. */
export const accountOf = (data: unknown): string | null => {
  const id = (data as { account?: { id?: unknown } } | undefined)?.account?.id;
  return typeof id === 'string' ? id : null;
};

export const notifyOf = (data: unknown): SeatNotify | null => {
  const n = (data as { notify?: Partial<SeatNotify> } | undefined)?.notify;
  return n && typeof n.webhook === 'string' ? (n as SeatNotify) : null;
};

type Seat = '0' | '1';

/** Who owes the next decision: none when nothing is asked or the game is over. */
const deciderOf = (m: Pick<MatchView, 'state'>): Seat | null => {
  if (m.state.ctx.gameover !== undefined) return null;
  const p = m.state.G.prompt?.player;
  return isSeat(p) ? p : null;
};

export interface NotifierOptions {
  service: MatchService;
  log: Logger;
  /** PUBLIC_URL: the address players open; else the page's origin saved at registration, else `listenUrl`. */
  publicUrl?: string;
  listenUrl: () => string;
  /** The channels told of each decision. */
  notices: Notices;
}

export class TurnNotifier {
  /** The last decider each served match was seen with (any reason), to tell when a decision changes hands. */
  private readonly deciders = new Map<string, Seat | null>();

  constructor(private readonly o: NotifierOptions) {
    o.service.onState((m) => this.seen(m));
    o.service.onEvict((matchID) => this.deciders.delete(matchID));
  }

  /** The match's address for a seat's player (`base`: the origin the seat's webhook was registered from). */
  link(matchID: string, base?: string): string {
    return `${(this.o.publicUrl ?? base ?? this.o.listenUrl()).replace(/\/+$/, '')}/#/match/${matchID}`;
  }

  private seen(m: MatchView): void {
    const now = deciderOf(m);
    const before = this.deciders.get(m.matchID);
    this.deciders.set(m.matchID, now);
    if (m.reason === 'move' && now !== null && now !== before) this.notify(m.matchID, m.metadata, now, 'turn');
  }

  /**
   * A seat was taken in this process. If that completed the table, the game starts: its first decider
   * hears of it when absent — unless it is the joiner, who is on the way to the board.
   */
  joined(matchID: string, joiner: string, metadata: MatchData): void {
    if (openSeat(Object.values(metadata.players)) !== null) return;
    // The state (who decides first) is loaded only when there is someone to tell.
    const other = metadata.players[(joiner === '0' ? 1 : 0) as number];
    if (!other || other.isConnected === true || (!notifyOf(other.data) && !accountOf(other.data))) return;
    this.o.notices.track(
      this.o.service.current(matchID).then((m) => {
        const first = m && deciderOf(m);
        if (first && first !== joiner) this.notify(matchID, m.metadata, first, 'start');
      }),
      'turn',
      matchID,
    );
  }

  /**
   * An event's round made this match (events/runner.ts `onRound`, once per round across processes): each
   * seat's player hears of it when absent, by the same rule as a turn.
   */
  roundStarted(matchID: string, round: number): void {
    this.bothSeats(matchID, 'round', round);
  }

  /**
   * A paired deal's second game was made, its first having ended (events/runner.ts `onPairGame`, once per
   * game across processes): each seat's player hears of it when absent, as of a round's start.
   */
  pairStarted(matchID: string): void {
    this.bothSeats(matchID, 'pair');
  }

  private bothSeats(matchID: string, kind: 'round' | 'pair', round?: number): void {
    this.o.notices.track(
      this.o.service.current(matchID).then((m) => {
        if (!m) return;
        for (const seat of ['0', '1'] as const) this.notify(matchID, m.metadata, seat, kind, round);
      }),
      'turn',
      matchID,
    );
  }

  private notify(matchID: string, metadata: MatchData, seat: Seat, kind: 'turn' | 'start' | 'round' | 'pair', round?: number): void {
    const p = seatEntry(metadata.players, seat);
    // Nobody to tell when the computer plays the seat: a vs-computer bot, or a stand-in for its owner.
    const played = botLevelOf(p) !== null || metadata.standIns?.[seat] !== undefined;
    if (!p || p.isConnected === true || played) return;
    const seatNotify = notifyOf(p.data);
    this.o.notices.turn({ matchID, seat, kind, ...(round === undefined ? {} : { round }), accountID: accountOf(p.data), seatNotify, link: this.link(matchID, seatNotify?.base) });
  }
}
