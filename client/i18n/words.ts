/**
 * Game words in the chosen language, built from the component data: card names, tokens, positions,
 * card actions (from CARDS[id].steps, docs/COMPONENTS.md), prompt options and the game record (G.log keys).
 * Nothing here decides a rule; it only puts data into words.
 */
import type { TFunction } from 'i18next';
import {
  CARDS,
  MOMENTUM_CARDS,
  NODE,
  TOKEN,
  type CardDef,
  type ChoiceArgs,
  type LogEntry,
  type MoveChoice,
  type PlayerID,
  type Step,
  type TokenRef,
  type ValueTarget,
  type WatergateView,
} from '../../game';

export type T = TFunction;

export const cardName = (t: T, id: string | number): string => {
  const c = CARDS[String(id)];
  return c ? t(`cardNames.${c.id}`, { defaultValue: c.name }) : String(id);
};
export const historyNote = (t: T, id: string): string => t(`history.${id}`);
export const informantName = (t: T, id: string | number): string => {
  const n = NODE[String(id)] as { name?: string } | undefined;
  return t(`informants.${id}`, { defaultValue: n?.name ?? String(id) });
};
export const roleName = (t: T, p: PlayerID | null | undefined): string => (p === '0' || p === '1' ? t(`role.${p}`) : t('role.spectator'));
export const colourName = (t: T, c: string): string => t(`colour.${c}`);

/** Where a space lies around Nixon's picture, as on a clock face (12 at the top): 1 to 12. */
const clockHour = (x: number, y: number): number => {
  const deg = (Math.atan2(x - 500, 500 - y) * 180) / Math.PI;
  return ((Math.round(deg / 30) % 12) + 12) % 12 || 12;
};

/**
 * An evidence space as a player finds it on the board — its colour, ring and clock position ("the yellow
 * space at 1 o'clock, inner ring"; unique on the board, test/client/spaces.test.ts) — not its code (B01),
 * which only "Show sources" draws. Anything else (a track space number) is left as it is.
 */
export function spaceName(t: T, id: string | number): string {
  const n = NODE[String(id)];
  if (!n || n.kind !== 'EVIDENCE') return String(id);
  return t('board.spaceName', { colour: colourName(t, n.colour), ring: t(`board.ring.${n.ring}`), hour: clockHour(n.x, n.y) });
}

export function tokenName(t: T, id: string | null | undefined): string {
  if (!id || !TOKEN[id]) return t('board.faceDownToken');
  const def = TOKEN[id];
  const name = t('token.name', { colours: def.colours.map((c) => colourName(t, c)).join('/') });
  return def.momentum ? t('token.redOne', { name }) : name;
}
/** Tokens as a sentence names them: "a blue token and a blue/yellow token", "uma ficha azul e …", "一枚蓝色标记和…". */
function tokenList(t: T, ids: string | number): string {
  const names = String(ids)
    .split(',')
    .filter(Boolean)
    .map((id) => t('record.a', { name: tokenName(t, id) }));
  if (names.length === 0) return t('noToken', { ns: 'log' });
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(t('token.list'))}${t('token.and')}${names[names.length - 1]}`;
}
const tokenCount = (ids: string | number): number => String(ids).split(',').filter(Boolean).length;

/** A track position as the players call it: space 0, or the side and distance (pos is seen from the Editor). */
export function posLabel(t: T, pos: number): string {
  if (pos === 0) return t('board.pos.zero');
  return t('board.pos.side', { role: roleName(t, pos > 0 ? '0' : '1'), n: Math.abs(pos) });
}

// ---- card actions -----------------------------------------------------------------------------------

const where = (t: T, w: string) => (w === 'ANY' ? '' : t(`step.where.${w}`));
const colourOnly = (t: T, c?: string) => (c ? t('step.colourOnly', { colour: colourName(t, c) }) : '');

/** One step of a card action or momentum ability, for an actor on `side`. */
export function stepText(t: T, step: Step, side: PlayerID): string {
  switch (step.op) {
    case 'MOVE_TOKEN':
      return t('step.MOVE_TOKEN', { token: t(`step.marker.${step.token}`), count: step.steps });
    case 'SET_TOKEN':
      return step.space >= 5
        ? t('step.SET_TOKEN_gain', { token: t(`step.marker.${step.token}`) })
        : t('step.SET_TOKEN', { token: t(`step.marker.${step.token}`), space: step.space });
    case 'MOVE_EVIDENCE': {
      // zh words the tokens around `where`/`colour` itself (max); en and pt need the plural of the token count (tokens).
      const max = step.maxTokens ?? 0;
      const params = { count: step.steps, max, tokens: t('step.evidenceTokens', { count: max }), where: where(t, step.where), colour: colourOnly(t, step.colour) };
      if (step.mode === 'EACH') return t(step.maxTokens === null ? 'step.MOVE_EVIDENCE_all' : 'step.MOVE_EVIDENCE_each', params);
      return t(step.maxTokens === null ? 'step.MOVE_EVIDENCE_totalAny' : 'step.MOVE_EVIDENCE_total', params);
    }
    case 'REVEAL_TRACK_EVIDENCE':
      return t('step.REVEAL_TRACK_EVIDENCE');
    case 'RETURN_TRACK_EVIDENCE':
      return t('step.RETURN_TRACK_EVIDENCE', { count: step.count, where: where(t, step.where) });
    case 'PIN_FROM_BAG':
      return t('step.PIN_FROM_BAG', { draw: step.draw, pin: step.pin, colour: colourOnly(t, step.colour) });
    case 'PIN_INFORMANT': {
      const face = t(side === '0' ? 'step.faceUp' : 'step.faceDown');
      return step.informant === 'CHOICE'
        ? t('step.PIN_INFORMANT_choice', { face })
        : t('step.PIN_INFORMANT', { name: informantName(t, step.informant), face });
    }
    case 'FLIP_INFORMANT':
      return t(`step.FLIP_INFORMANT_${side}`, { count: step.count });
    case 'FLIP_BOARD_EVIDENCE':
      return t(`step.FLIP_BOARD_EVIDENCE_${side}`, { count: step.count, colour: colourOnly(t, step.colour) });
    case 'REMOVE_BOARD_EVIDENCE':
      return t(`step.REMOVE_BOARD_EVIDENCE_${step.face}`, { count: step.count, colour: colourOnly(t, step.colour) });
    case 'DRAW_AND_PLAY_TOP':
    case 'RESTRICT_OPPONENT_EVENTS':
    case 'REPLAY_REMOVED_EVENT':
    case 'GAMBIT_RECYCLE':
      return t(`step.${step.op}`);
  }
}

/** The whole action text of a card: requirements, reaction, steps, Gambit's recycling. */
export function cardActionLines(t: T, c: CardDef): string[] {
  const lines: string[] = [];
  for (const r of c.requires) lines.push(t(`require.${r.req}`, r.req === 'OPPONENT_MOMENTUM_AT_LEAST' ? { n: r.n } : {}));
  if (c.reaction) {
    lines.push(`${t(`reaction.${c.reaction.trigger}`)} ${t(`reaction.${c.reaction.effect}`)}`);
    lines.push(t('reaction.valueOnTurn'));
  }
  for (const s of c.steps) lines.push(stepText(t, s, c.side));
  if (c.recycle) lines.push(t('step.GAMBIT_RECYCLE'));
  if (lines.length === 0) lines.push(t('card.noAction'));
  return lines;
}

export const abilityText = (t: T, space: number): string =>
  MOMENTUM_CARDS['0'].abilities[space - 1].map((s) => stepText(t, s, '0')).join(' ');

// ---- prompt options ---------------------------------------------------------------------------------

const refName = (t: T, view: WatergateView, ref: TokenRef): string => {
  if (typeof ref === 'string') {
    const tok = view.track.evidence.find((x) => x.id === ref);
    return tok ? `${tokenName(t, ref)} (${posLabel(t, tok.pos)})` : tokenName(t, ref);
  }
  return t('token.hidden', { n: ref.hidden + 1 });
};

function targetText(t: T, view: WatergateView, target: ValueTarget): string {
  switch (target.kind) {
    case 'initiative':
    case 'momentum':
    case 'none':
      return t(`prompt.targets.${target.kind}`);
    case 'ask':
      return t('prompt.targets.ask', { colour: colourName(t, target.colour) });
    case 'evidence': {
      const tok = view.track.evidence.find((x) => x.id === target.token);
      return t('prompt.targets.evidence', { token: tokenName(t, target.token), pos: posLabel(t, tok?.pos ?? 0) });
    }
  }
}

function choiceText(t: T, view: WatergateView, step: Step, args: ChoiceArgs): string {
  const list = (items: string[]) => items.join(t('token.list'));
  if ('tokens' in args) {
    if (args.tokens.length === 0) return step.op === 'PIN_FROM_BAG' ? t('prompt.choice.keepNone') : t('prompt.choice.nothing');
    const names = list(args.tokens.map((r) => refName(t, view, r)));
    if (step.op === 'PIN_FROM_BAG') return t('prompt.choice.keep', { list: names });
    return t(step.op === 'RETURN_TRACK_EVIDENCE' ? 'prompt.choice.return' : 'prompt.choice.tokens', { list: names });
  }
  if ('split' in args)
    return t('prompt.choice.split', {
      list: list(args.split.map((s) => t('prompt.choice.splitPart', { token: refName(t, view, s.token), steps: `+${s.steps}` }))),
    });
  if ('informants' in args)
    return args.informants.length === 0 ? t('prompt.choice.nothing') : list(args.informants.map((i) => informantName(t, i)));
  if ('spaces' in args)
    return args.spaces.length === 0
      ? t('prompt.choice.nothing')
      : list(args.spaces.map((s) => t('prompt.choice.spaceItem', { token: tokenName(t, view.board[s]?.token), space: spaceName(t, s) })));
  if (step.op === 'GAMBIT_RECYCLE')
    return args.card === null ? t('prompt.choice.noRecycle') : t('prompt.choice.recycle', { card: cardName(t, args.card) });
  return args.card === null ? t('prompt.choice.noCard') : cardName(t, args.card);
}

/** Words for any legal move the board offers. */
export function moveText(t: T, view: WatergateView, m: MoveChoice): string {
  const a = m.args[0];
  switch (m.move) {
    case 'play': {
      const p = a as { card: string; as: 'value' | 'action'; target?: ValueTarget };
      return p.as === 'action' ? t('card.useAction') : targetText(t, view, p.target!);
    }
    case 'answer':
      return tokenName(t, a as string);
    case 'target':
      return targetText(t, view, a as ValueTarget);
    case 'react':
      return a === null ? t('prompt.pass') : t('prompt.reactWith', { card: cardName(t, a as string) });
    case 'choose':
      return view.prompt?.kind === 'choose' ? choiceText(t, view, view.prompt.step, a as ChoiceArgs) : '';
    case 'pin':
      return t('prompt.pinTo', { space: spaceName(t, (a as { space: string }).space) });
    case 'resign':
      return t('resign.button');
  }
}

// ---- the game record --------------------------------------------------------------------------------

const MARKER_KEYS = new Set(['value.marker', 'step.moveToken', 'step.setToken']);

/** One line of G.log in the chosen language: the only words for the record (its keys: game/logkeys.ts). */
export function logText(t: T, entry: LogEntry): string {
  const p = entry.params;
  const side = entry.player;
  // A sentence starts with the side as a subject ("The Editor", "O Editor"); a direction names it as an object.
  const out: Record<string, string | number> = side === '0' || side === '1' ? { who: t(`record.subject.${side}`), toward: t(`record.toward.${side}`) } : { who: roleName(t, side) };
  for (const [k, v] of Object.entries(p)) {
    if (k === 'card') out.card = cardName(t, v);
    else if (k === 'token') out[MARKER_KEYS.has(entry.key) ? 'marker' : 'token'] = MARKER_KEYS.has(entry.key) ? t(`step.marker.${v}`) : tokenName(t, String(v));
    else if (k === 'tokens') {
      out.tokens = tokenList(t, v);
      out.count ??= tokenCount(v); // "voltou" or "voltaram"
    }
    else if (k === 'informant') out.informant = informantName(t, v);
    else if (k === 'colour') out.colour = colourName(t, String(v));
    else if (k === 'space') out.space = spaceName(t, v); // board spaces in words; track and momentum spaces are numbers
    else if (k === 'steps') {
      out.steps = v;
      out.count = Number(v); // chooses "1 step" or "2 steps" (i18next plurals)
    } else out[k] = v;
  }
  if (entry.key === 'step.return') {
    const parts = [p.tokens ? tokenList(t, p.tokens) : '', Number(p.hidden) ? t('step.returnHidden', { ns: 'log', keySeparator: false, count: Number(p.hidden) }) : ''];
    out.list = parts.filter(Boolean).join(t('token.and'));
  }
  // Which way a picture or a token was turned: the Editor turns them face up, Nixon face down (step.FLIP_*).
  if (entry.key === 'informant.flip' || entry.key === 'board.flip') out.face = t(side === '0' ? 'record.faceUp' : 'record.faceDown');
  if (entry.key === 'ability') out.ability = abilityText(t, Number(p.space));
  if (entry.key === 'step.nothing') out.why = t(`record.nothing.${p.op ?? 'other'}`, { defaultValue: t('record.nothing.other') });
  // The record's keys contain dots ("draw.cards"): they live flat in the "log" namespace.
  return t(entry.key, { ...out, ns: 'log', keySeparator: false, nsSeparator: false, defaultValue: entry.key });
}
