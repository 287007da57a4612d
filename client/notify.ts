/**
 * "Your move" as a browser notification (the Notifications API), shown only while the tab is hidden: a
 * visible board already says whose move it is. On once the browser allows this site's notifications
 * (asked by the match bar's button: browsers ask only from a click) unless turned off here (remembered
 * in this browser). When no page is open the browser cannot help; the seat's webhook (NotifyPanel) can.
 * Small, so part of the match page: nothing to fetch when a decision becomes the player's (the server may be away).
 */
const KEY = 'watergate.notify';

export type NotifyState = 'on' | 'off' | 'denied' | 'unsupported';

export function notifyState(): NotifyState {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' && localStorage.getItem(KEY) !== 'off' ? 'on' : 'off';
}

export async function askNotify(): Promise<NotifyState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if ((await Notification.requestPermission()) === 'granted') localStorage.setItem(KEY, 'on');
  return notifyState();
}

export const stopNotify = (): void => localStorage.setItem(KEY, 'off');

/** Called when a decision becomes the player's (Board's "owing", through the shell). */
export function turnNotice(title: string, body: string): void {
  if (document.visibilityState !== 'hidden' || notifyState() !== 'on') return;
  try {
    const n = new Notification(title, { body, tag: 'watergate-turn' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Chrome on Android shows notifications only from a service worker: the title still says it.
  }
}
