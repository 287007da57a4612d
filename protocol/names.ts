/**
 * What a player may be called: the server refuses any other name (a 400 giving the reason), and the
 * lobby form checks the same rule before sending. A name is shown to the opponent and to everyone who
 * lists the match, so it must not hide characters, turn the text around it (bidi controls), pass for
 * another player by an invisible difference, or pass for the computer.
 *
 * Plain code, no imports: the browser and the server share it.
 */

const NAME_MAX = 40;

/** Invisible or text-turning: format characters (bidi controls, zero-width, tags), every default-ignorable, blank Braille. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u; // U+2800: the blank Braille pattern, drawn as nothing
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
/** Private use, unassigned and lone surrogates: no font shows them the same everywhere. */
const UNKNOWN = /[\p{Co}\p{Cn}\p{Cs}]/u;
/** A letter carries a few marks in real scripts; piles of them ("zalgo") spill over the text around. */
const MARK_PILE = /\p{M}{5,}/u;

/**
 * The computer's names in every language of the client (client/i18n/locales: `board.computer`,
 * `lobby.computerSeat`), with the words that appear beside them (levels, roles): a human seat may not
 * be called any mix of these. test/client/names.test.ts checks this list against the locales.
 */
const COMPUTER = ['computer', 'computador', '电脑', '電腦'];
const BESIDE = ['easy', 'normal', 'hard', 'expert', 'facil', 'dificil', 'especialista', '简单', '普通', '困难', '专家', 'editor', 'nixon', '主编', '尼克松'];
const COMPUTER_NAME = new RegExp(`^(?:${BESIDE.join('|')})*(?:${COMPUTER.join('|')})(?:${[...COMPUTER, ...BESIDE].join('|')})*$`, 'u');

/** Letters that look like Latin ones (Cyrillic, Greek, Armenian, small capitals, digits) read as those, for the comparison only. */
const LOOKALIKE: Record<string, string> = {
  а: 'a', с: 'c', е: 'e', о: 'o', р: 'p', т: 't', у: 'y', х: 'x', м: 'm', н: 'h', к: 'k', і: 'i', ԁ: 'd',
  г: 'r', օ: 'o', ս: 'u', ᴄ: 'c', ᴏ: 'o', ᴍ: 'm', ᴘ: 'p', ᴜ: 'u', ᴛ: 't', ᴇ: 'e', ʀ: 'r',
  α: 'a', ο: 'o', ρ: 'p', τ: 't', υ: 'u', ν: 'v', μ: 'u', ε: 'e', κ: 'k', ι: 'i', '0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '€': 'e',
};

/** The name as compared with the computer's: compatibility forms (full width) folded, accents, case, lookalikes, spaces and punctuation dropped. */
function nameSkeleton(name: string): string {
  return [...name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()]
    .map((c) => LOOKALIKE[c] ?? c)
    .join('')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

export const isComputerName = (name: string): boolean => COMPUTER_NAME.test(nameSkeleton(name));

/** Why a name is refused: `length`, `characters` (hidden, control or unknown ones) or `computer`, with the server's words. */
export type NameProblem = { code: 'length' | 'characters' | 'computer'; problem: string };

/** The name to store (NFC, runs of white space as one space, trimmed), or why it is refused. */
export function checkName(raw: string): { name: string } | NameProblem {
  if (raw.length > NAME_MAX * 4) return { code: 'length', problem: `must be 1 to ${NAME_MAX} characters` };
  if (UNKNOWN.test(raw)) return { code: 'characters', problem: 'must not contain private-use, unassigned or broken characters' };
  const nfc = raw.normalize('NFC');
  if (CONTROL.test(nfc)) return { code: 'characters', problem: 'must not contain control characters' };
  if (INVISIBLE.test(nfc)) return { code: 'characters', problem: 'must not contain invisible or direction-changing characters' };
  if (MARK_PILE.test(nfc.normalize('NFD'))) return { code: 'characters', problem: 'must not stack more than 4 accents on one letter' };
  const name = nfc.replace(/\s+/gu, ' ').trim();
  if (name.length === 0 || name.length > NAME_MAX) return { code: 'length', problem: `must be 1 to ${NAME_MAX} characters` };
  if (isComputerName(name)) return { code: 'computer', problem: "is the computer's name: choose another" };
  return { name };
}
