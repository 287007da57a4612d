/**
 * The public game record in words. G.log stores message keys with public parameters; this renders them
 * in English (the client may render the same keys in other languages).
 */
import { CARDS } from './cards';
import { NODE } from './board';
import { TOKEN } from './tokens';
import { ROLE } from './state';
import type { LogEntry } from './types';

const cardName = (id: string | number) => CARDS[String(id)]?.name ?? String(id);
const tokenName = (id: string) => {
  const t = TOKEN[id];
  return t ? `${t.colours.join('/')} token${t.momentum ? ' (red 1)' : ''}` : id;
};
const tokens = (list: string | number) =>
  String(list)
    .split(',')
    .filter(Boolean)
    .map(tokenName)
    .join(', ') || 'no token';
const informant = (id: string | number) => (NODE[String(id)] as { name?: string } | undefined)?.name ?? String(id);
const s = (n: string | number) => (Number(n) === 1 ? '' : 's');

type Params = LogEntry['params'];
export const MESSAGES: Readonly<Record<string, (p: Params, who: string) => string>> = {
  round: (p) => `Round ${p.round} begins.`,
  'draw.cards': (p, who) => `${who} drew ${p.count} card${s(p.count)}.`,
  'draw.tokens': (p) => `Nixon drew ${p.count} evidence token${s(p.count)} face down onto space 0.`,
  reshuffle: (p, who) => `${who} shuffled the discard pile into a new draw deck (${p.count} cards).`,
  'value.marker': (p, who) => `${who} played ${cardName(p.card)} for its value: moved the ${p.token} token ${p.steps} step${s(p.steps)}.`,
  'value.evidence': (p, who) => `${who} played ${cardName(p.card)} for its value: moved a ${tokenName(String(p.token))} ${p.steps} step${s(p.steps)}.`,
  'value.name': (p, who) => `${who} played ${cardName(p.card)} for its value on a ${tokenName(String(p.token))} (turned face up).`,
  'value.none': (p, who) => `${who} played ${cardName(p.card)} for its value: no token could move.`,
  ask: (p) => `The Editor played ${cardName(p.card)} for its value and asked for a face-down ${p.colour} token.`,
  'ask.none': (p) => `Nixon: no face-down ${p.colour} token on the track.`,
  'ask.answer': (p) => `Nixon turned up a ${tokenName(String(p.token))} for the Editor.`,
  'play.action': (p, who) => `${who} played ${cardName(p.card)} for its action.`,
  'react.play': (p, who) => `${who} reacted with ${cardName(p.card)}.`,
  'react.pass': (_p, who) => `${who} did not react.`,
  cancelled: (p) => `${cardName(p.card)} was cancelled.`,
  redirect: (p) => `"Follow the money!": the ${tokenName(String(p.token))} moves ${p.steps} step${s(p.steps)} toward the Editor instead.`,
  'initiative.gain': (_p, who) => `${who} gained the initiative token.`,
  'momentum.gain': (p, who) => `${who} gained a momentum token (${p.count} on the momentum card).`,
  'momentum.full': (_p, who) => `${who} gained a momentum token with a full card: it is removed from the game.`,
  'evidence.gain': (p, who) => `${who} gained ${tokens(p.tokens)}.`,
  'pin.up': (p, who) => `${who} pinned a ${tokenName(String(p.token))} face up on ${p.space}.`,
  'pin.down': (p, who) => `${who} pinned a ${tokenName(String(p.token))} face down on ${p.space}.`,
  'pin.momentum': (_p, who) => `The red "1" moves the momentum token 1 step toward ${who}.`,
  'pin.impossible': (p) => `No empty matching space: ${tokens(p.tokens)} went back to the bag.`,
  'pin.impossible.removed': (p) => `No empty matching space: ${tokens(p.tokens)} removed from the game.`,
  'informant.recruit': (p, who) => `${who} pinned the picture of ${informant(p.informant)} face up.`,
  'informant.discredit': (p, who) => `${who} pinned the picture of ${informant(p.informant)} face down.`,
  'informant.onBoard': (p) => `The picture of ${informant(p.informant)} is already on the board.`,
  'informant.flip': (p, who) => `${who} turned the picture of ${informant(p.informant)}.`,
  'board.flip': (p, who) => `${who} turned the ${tokenName(String(p.token))} on ${p.space}.`,
  'board.remove': (p, who) => `${who} sent the ${tokenName(String(p.token))} on ${p.space} back to the bag.`,
  'step.moveToken': (p) => `The ${p.token} token moves ${p.steps} step${s(p.steps)}.`,
  'step.setToken': (p) => `The ${p.token} token is set to space ${p.space}.`,
  'step.nothing': () => `Nothing to do for this part.`,
  'step.declined': (_p, who) => `${who} chose nothing for this part.`,
  'step.reveal': (p) => `Face-down track tokens turned face up: ${tokens(p.tokens)}.`,
  'step.return': (p, who) =>
    `${who} sent ${[p.tokens ? tokens(p.tokens) : '', Number(p.hidden) ? `${p.hidden} face-down token${s(p.hidden)}` : ''].filter(Boolean).join(' and ')} back to the bag.`,
  'step.drawTokens': (p, who) => `${who} drew ${p.count} token${s(p.count)} from the bag.`,
  'step.keepNone': (_p, who) => `${who} kept none of the drawn tokens.`,
  'step.noCard': () => `No card left to draw.`,
  'step.restrict': () => `Until the end of this cards phase the Editor may use events only for their value.`,
  'step.replay': (p) => `The Editor carries out ${cardName(p.card)} again.`,
  'gambit.recycle': (p) => `Nixon removed ${cardName(p.card)} from the game; Gambit goes to the discard pile.`,
  'gambit.keep': () => `Gambit is removed from the game.`,
  ability: (p) => `The Editor's momentum space ${p.space} ability.`,
  assessment: () => `Assessment.`,
  'assess.bag': (p) => `${p.count} token${s(p.count)} on space 0 went back to the bag.`,
  'assess.initiative': (_p, who) => `${who} takes the initiative.`,
  'assess.momentumSupply': () => `The momentum token on 0 returns to the supply.`,
  'assess.reset': () => `The initiative token and a new momentum token are placed on space 0.`,
  'win.connected': () => `The Editor wins: two informants are connected to Nixon.`,
  'win.momentum': () => `Nixon wins with his 5th momentum token.`,
  'win.supply': () => `Nixon wins: the momentum supply is empty.`,
};

/** One record line in English. */
export function describe(entry: LogEntry): string {
  const who = entry.player === null ? '' : ROLE[entry.player];
  return MESSAGES[entry.key]?.(entry.params, who) ?? entry.key;
}
