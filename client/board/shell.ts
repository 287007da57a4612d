/** What the page around a board offers it (online: lobby actions; local: none), without prop drilling. */
import { createContext, type ReactNode } from 'react';

export interface Shell {
  /** Online: show whether the opponent is connected (local matches have no connections). */
  online?: boolean;
  /** Hotseat: one person plays both seats, so the result names the winner instead of "you". */
  hotseat?: boolean;
  /** Buttons shown on the game-over screen (play again, back to the lobby). */
  gameOverActions?: (winner: string) => ReactNode;
}

export const ShellContext = createContext<Shell>({});
