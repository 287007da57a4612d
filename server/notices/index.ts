/**
 * Notices to players who are not at the board (docs/ARCHITECTURE.md "Notices"): ONE decision of who is
 * told what — made by server/notify/notifier.ts for turns ("a decision became this seat's and none of its
 * sockets is connected", in the process that saved the move) and by the callers of the other kinds — and
 * several channels that each deliver it their way: the webhook (server/notify/), e-mail (server/mail/),
 * web push. A channel adds its own rules (an account's settings, "at most one per match per hour" through
 * `MailRows.once`, its queue), never a second copy of the decision.
 *
 * A channel never blocks a move: `Notices` calls each one fire-and-forget, catches and logs what it throws,
 * and `close` waits for what is under way.
 */
import type { Logger } from '../log';
import type { SeatNotify } from '../notify/notifier';

type Seat = '0' | '1';

/**
 * A turn (or the game's first decision, `start`) became an absent seat's; or, `round`, an event's round
 * started and this seat's game is made (server/events/runner.ts `onRound`: both seats of each game, by
 * the same away rule). A round's game is a turn notice, not a kind of its own: the player acts on it the
 * same way (open the match), and the same switch ("your turn") and limits (once per match per hour) fit.
 * `pair`: the second game of a paired deal (an event's or a paired challenge's) is made, its first having
 * ended (runner.ts `onPairGame`): both seats, by the same away rule — the same notice as a round's start,
 * in words that fit a challenge too.
 */
export interface TurnNotice {
  matchID: string;
  seat: Seat;
  kind: 'turn' | 'start' | 'round' | 'pair';
  /** The event's round number (`round` only). */
  round?: number;
  /** The account holding the seat (server-set), or null for a guest seat. */
  accountID: string | null;
  /** The seat's own webhook registration (a guest's, or one made before the seat was the account's). */
  seatNotify: SeatNotify | null;
  /** The match's address on this server (PUBLIC_URL, else the registering page's origin, else the listen address). */
  link: string;
}

/** A player challenged an account by name (server/challenges/ calls `noticeChallenge`). */
export interface ChallengeNotice {
  /** Who is challenged. */
  accountID: string;
  /** The challenger's username, as shown. */
  from: string;
  /** Where to answer it (the lobby, or the match once made). */
  link: string;
}

/** A game ended for an absent account's seat; the rating change when it was rated. */
export interface GameEndNotice {
  matchID: string;
  accountID: string;
  seat: Seat;
  outcome: 'won' | 'lost' | 'aborted';
  /** Rounded ratings before and after, when rated. */
  rating?: { before: number; after: number };
  link: string;
}

/** A correspondence clock of an absent account's seat is about to run out. */
export interface ClockNotice {
  matchID: string;
  accountID: string;
  seat: Seat;
  /** Milliseconds left when noticed. */
  leftMs: number;
  link: string;
}

/**
 * One way of reaching a player. Every method is optional (a webhook knows nothing of challenges); each is
 * called only after the decision that the player should be told. The push channel implements this too.
 */
export interface NoticeChannel {
  readonly name: string;
  turn?(n: TurnNotice): Promise<void>;
  challenge?(n: ChallengeNotice): Promise<void>;
  gameEnd?(n: GameEndNotice): Promise<void>;
  clock?(n: ClockNotice): Promise<void>;
  close?(): Promise<void>;
}

type Kind = 'turn' | 'challenge' | 'gameEnd' | 'clock';

export class Notices {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly channels: NoticeChannel[] = [];

  constructor(private readonly log: Logger) {}

  /** Adds a channel (the server adds webhook and mail; push adds itself the same way). */
  add(channel: NoticeChannel): void {
    this.channels.push(channel);
  }

  /** Whether some channel delivers this kind (a scan for it is skipped when none does). */
  wants(kind: Kind): boolean {
    return this.channels.some((c) => typeof c[kind] === 'function');
  }

  turn(n: TurnNotice): void {
    this.each('turn', n, n.matchID);
  }

  /** For server/challenges/: tell the challenged account by every channel it has (it need not be away). */
  noticeChallenge(n: ChallengeNotice): void {
    this.each('challenge', n);
  }

  gameEnd(n: GameEndNotice): void {
    this.each('gameEnd', n, n.matchID);
  }

  clock(n: ClockNotice): void {
    this.each('clock', n, n.matchID);
  }

  private each(kind: Kind, n: never | object, matchID?: string): void {
    for (const c of this.channels) {
      const f = c[kind] as ((x: object) => Promise<void>) | undefined;
      if (!f) continue;
      this.track(f.call(c, n), c.name, matchID);
    }
  }

  /** Fire and forget, but never an unhandled rejection, and `close` can wait for what is under way. */
  track(p: Promise<unknown>, channel: string, matchID?: string): void {
    const t = p.catch((err: unknown) => this.log.error({ err, matchID, channel }, 'notice failed')).finally(() => this.inFlight.delete(t));
    this.inFlight.add(t);
  }

  /** Channels stop their retries first, then what is under way is awaited. */
  async close(): Promise<void> {
    for (const c of this.channels) await c.close?.();
    await Promise.all(this.inFlight);
  }
}
