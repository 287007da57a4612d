/**
 * `npm run docs:components` writes docs/COMPONENTS.md from the component data in game/ — the cards,
 * momentum cards, tokens and board as the game uses them, with each item's provenance — so the document
 * and the data cannot drift apart (test/game/components.test.ts compares them). The explanations are here; the
 * tables are made from the data, and card effects are worded by the client's English.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { abilityText, cardActionLines } from '../client/i18n/words';
import { ADJACENT, CARDS, INFORMANTS, MOMENTUM_CARDS, NODES, SPACES, THREADS, TOKENS, type CardDef, type PlayerID } from '../game/index';
import { translator } from './words';

const ROOT = resolve(import.meta.dirname, '..');
export const COMPONENTS_DOC = join(ROOT, 'docs/COMPONENTS.md');

const INTRO = `# Components

> **A reconstruction, not the printed game.** The rulebook tells how many cards, tokens and spaces there
> are and what a few famous cards do; it does not print the cards' values, colours and most effects, the
> board's layout, the mix of evidence tokens or the Editor's momentum card. Everything the rulebook does
> not state was designed to fit what it does state, and is kept as data (\`game/cards.ts\`,
> \`game/momentum.ts\`, \`game/tokens.ts\`, \`game/board.ts\`) so the real components can replace it.
> This page is written from that data by \`npm run docs:components\`; the rules are in [RULES.md](RULES.md).

**Provenance**, shown on every card in the game and in the tables below:
- **R** — stated in the 2019 rulebook;
- **S** — taken, with low confidence, from the sample data of an unfinished hobby project;
- **H** — suggested by a published review; the exact wording is ours;
- **D** — designed for this reconstruction.

## How effects are written
A card's action (and each space of the Editor's momentum card) is a list of steps, carried out in order,
each as far as it can be (R15). Thirteen kinds of step cover every card (\`game/primitives.ts\`):

| step | what it does |
|---|---|
| MOVE_TOKEN | moves the initiative or the momentum token some steps toward the actor (nothing if it was gained) |
| SET_TOKEN | puts the initiative or the momentum token on a space counted from the actor (5: gained) |
| MOVE_EVIDENCE | EACH: up to N tokens in a part of the track each move S steps; TOTAL: S steps split among up to N tokens, at least one each (K7) |
| REVEAL_TRACK_EVIDENCE | turns every face-down token on the track face up, without moving it |
| RETURN_TRACK_EVIDENCE | sends up to N tokens from a part of the track back to the bag |
| PIN_FROM_BAG | draws some tokens, the actor alone sees them and pins up to N that fit, the rest go back (K3, K9) |
| PIN_INFORMANT | pins a named picture (or one of the actor's choice): face up for the Editor, face down for Nixon |
| FLIP_INFORMANT | turns up to N pictures on the board to the actor's side |
| FLIP_BOARD_EVIDENCE | turns up to N pinned tokens to the actor's side (not a pin: no red "1") |
| REMOVE_BOARD_EVIDENCE | sends up to N pinned tokens (face up, down or either) back to the bag |
| DRAW_AND_PLAY_TOP | draws the top card of the actor's deck and plays it at once (K5) |
| RESTRICT_OPPONENT_EVENTS | until the cards phase ends, the Editor may use events for their value only |
| REPLAY_REMOVED_EVENT | carries out again the action of one of the actor's removed events (K18) |

Requirements an action may have: NOT_FIRST_TURN (the actor has already had a turn this cards phase, D7),
OPPONENT_MOMENTUM_AT_LEAST n. Reactions (R16, K4–K6) have no action of their own: they cancel the card they
answer (and "Follow the money!" turns the move round), each cancelling the card just below it in the chain.
`;

const prov = (c: CardDef) => {
  const p = c.provenance as { name: string; type: string; valueColour: string; effect: string; note?: string };
  return `name ${p.name}, type ${p.type}, value/colour ${p.valueColour}, effect ${p.effect}${p.note ? ` — ${p.note}` : ''}`;
};

async function cardTable(side: PlayerID): Promise<string> {
  const { t } = await translator('en');
  const rows = Object.values(CARDS)
    .filter((c) => c.side === side)
    .sort((a, b) => a.number - b.number)
    .map((c) => `| ${c.number} | ${c.id} | ${c.name} | ${c.type.toLowerCase()} | ${c.value} | ${c.colour} | ${cardActionLines(t, c).join(' ').replace(/\|/g, '/')} | ${prov(c)} |`);
  return ['| # | id | card | type | value | colour | action | provenance |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

async function momentumSection(): Promise<string> {
  const { t } = await translator('en');
  const editor = MOMENTUM_CARDS['0'];
  const nixon = MOMENTUM_CARDS['1'];
  return [
    `**Nixon's momentum card** (${nixon.number}): ${nixon.spaces} spaces, no abilities; his ${nixon.spaces}th token wins (R25). Provenance: ${nixon.provenance}.`,
    '',
    `**The Editor's momentum card** (${editor.number}): ${editor.spaces} spaces, each with an ability carried out when a token lands on it (R24, K10); a token gained with the card full is removed from the game. Provenance: ${editor.provenance}.`,
    '',
    '| space | ability |',
    '|---|---|',
    ...editor.abilities.map((_a, i) => `| ${i + 1} | ${abilityText(t, i + 1)} |`),
  ].join('\n');
}

function tokenSection(): string {
  const kind = (t: (typeof TOKENS)[number]) => `${t.colours.join('/')}${t.momentum ? ' with red "1"' : ''}`;
  const count = new Map<string, { bag: number; spare: number }>();
  for (const t of TOKENS) {
    const k = kind(t);
    const c = count.get(k) ?? { bag: 0, spare: 0 };
    c[t.use]++;
    count.set(k, c);
  }
  return [
    `${TOKENS.length} evidence tokens (counts R; the mix D): ${TOKENS.filter((t) => t.use === 'bag').length} go in the bag, the others stay in the box.`,
    '',
    '| token | in the bag | spare |',
    '|---|---|---|',
    ...[...count.entries()].map(([k, c]) => `| ${k} | ${c.bag} | ${c.spare} |`),
  ].join('\n');
}

function boardSection(): string {
  const bfs = (from: string) => {
    const d = new Map([[from, 0]]);
    const queue = [from];
    while (queue.length) {
      const n = queue.shift()!;
      for (const m of ADJACENT[n]) if (!d.has(m)) (d.set(m, d.get(n)! + 1), queue.push(m));
    }
    return d;
  };
  const fromNixon = bfs('NIXON');
  const colours = new Map<string, number>();
  for (const s of SPACES) colours.set(s.colour, (colours.get(s.colour) ?? 0) + 1);
  return [
    `${NODES.length} places (Nixon's picture, ${INFORMANTS.length} informant spaces, ${SPACES.length} evidence spaces: ${[...colours.entries()].map(([c, n]) => `${n} ${c}`).join(', ')}) joined by ${THREADS.length} threads (layout D; counts of informants R). Insiders lie two evidence spaces from Nixon, outsiders three.`,
    '',
    '| informant | group | evidence spaces to Nixon |',
    '|---|---|---|',
    ...INFORMANTS.map((i) => `| ${i.name} | ${i.group} | ${fromNixon.get(i.id)! - 1} |`),
  ].join('\n');
}

export async function componentsDoc(): Promise<string> {
  return [
    INTRO,
    "## Nixon's cards",
    await cardTable('1'),
    '',
    "## The Editor's cards",
    await cardTable('0'),
    '',
    '## Momentum cards',
    await momentumSection(),
    '',
    '## Evidence tokens',
    tokenSection(),
    '',
    '## The board',
    boardSection(),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(COMPONENTS_DOC, await componentsDoc());
  console.log(`written ${COMPONENTS_DOC}`);
}
