/** What a starting page and the service worker (client/sw.ts) say to each other about a new version. */

/** Page → waiting worker, with a MessagePort for the answer: "take over now, if no other window is open". */
export const SW_TAKE_OVER = 'watergate:take-over';

/** Worker → page: whether it took over (false: another window of the app is open, maybe mid-game). */
export interface TakeOverReply {
  taken: boolean;
}
