/** What the page around a board offers it (online: lobby actions; local: none), without prop drilling. */
import { createContext, type ReactNode } from 'react';
import type { MoveChoice, PlayerID } from '../../game';

export interface Shell {
  /** Online: show whether the opponent is connected (local matches have no connections). */
  online?: boolean;
  /** Hotseat: one person plays both seats, so the result names the winner instead of "you". */
  hotseat?: boolean;
  /** Buttons shown on the game-over screen (play again, back to the lobby). */
  /** What a player may do once the game is over (play again…). */
  gameOverActions?: () => ReactNode;
  /** "What would the computer do?" is offered (the match's `hints` setting, untimed matches only). */
  hints?: boolean;
  /**
   * The tutorial: the one move the player is asked to make now, highlighted and the only one offered
   * (`move: null`: nothing may be played yet).
   */
  guide?: { move: MoveChoice | null };
  /** Local mode against our bot: the seat it plays (online, the match's seats say it). */
  computer?: PlayerID;
  /**
   * A part of the page shown with the board (the tutorial's step): at the top of the column beside the
   * board on a wide screen, where the player reads it with the prompt; above the board elsewhere.
   */
  aside?: ReactNode;
  /** A decision just became this player's (online): the page may tell them outside the tab. */
  yourTurn?: () => void;
}

export const ShellContext = createContext<Shell>({});
