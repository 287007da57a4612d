/**
 * The optional "your move" sound: off unless the player turns it on (remembered in this browser). A short
 * two-note chime made with Web Audio, so there is no sound file to load.
 */
const KEY = 'watergate.sound';

export const soundOn = (): boolean => localStorage.getItem(KEY) === 'on';
export const setSound = (on: boolean): void => localStorage.setItem(KEY, on ? 'on' : 'off');

let ctx: AudioContext | null = null;

export function chime(): void {
  if (!soundOn() || typeof AudioContext === 'undefined') return;
  ctx ??= new AudioContext();
  const at = ctx.currentTime;
  for (const [i, freq] of [660, 880].entries()) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.12, at + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.001, at + i * 0.12 + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at + i * 0.12);
    osc.stop(at + i * 0.12 + 0.26);
  }
}
