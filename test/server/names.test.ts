/**
 * Player names as the opponent and the match list see them: no hidden or text-turning characters, no
 * invisible difference from another name, never the computer's name in any language the client speaks.
 * The spoofs are sent over HTTP to a running server (join, update, rename); the computer's names are
 * taken from the client's own locales, so a new language or wording cannot slip past the rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../client/i18n/locales/en';
import ptBR from '../../client/i18n/locales/pt-BR';
import zhCN from '../../client/i18n/locales/zh-CN';
import enPages from '../../client/i18n/locales/pages/en';
import ptBRPages from '../../client/i18n/locales/pages/pt-BR';
import zhCNPages from '../../client/i18n/locales/pages/zh-CN';
import { checkName, isComputerName } from '../../protocol/names';
import { LEVEL_NAMES } from '../../protocol/index';
import { api, startTestServer, type TestServer } from './helpers';

const fill = (template: string, words: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => words[k] ?? '');

/** How each language shows the computer's seat, at every level and in every role (as the board and lobby word it). */
const computerAsShown = [
  [en, enPages],
  [ptBR, ptBRPages],
  [zhCN, zhCNPages],
].flatMap(([m, p]) => {
  const main = m as typeof en;
  const pages = p as typeof enPages;
  const levels = LEVEL_NAMES.map((l) => main.lobby.levels[l]);
  const roles = [main.role['0'], main.role['1']];
  return [
    fill(main.board.computer, { level: '' }).replace(/[,，（）() ]+$/u, ''),
    ...levels.map((level) => fill(main.board.computer, { level })),
    ...levels.flatMap((level) => roles.map((role) => fill(pages.lobby.computerSeat, { role, level }))),
  ];
});

/** Spoofs of the computer: case, width, accents, lookalike letters, punctuation, order. */
const computerSpoofs = ['computer', 'COMPUTER', 'Ｃｏｍｐｕｔｅｒ', 'Cοmputer' /* Greek omicron */, 'Сomputer' /* Cyrillic Es */, 'C0mputer', 'Computer!', 'Computer, hard', 'hard computer', 'Computer (Nixon)', 'computador (difícil)', 'COMPUTADOR', '电脑', '電腦', '电脑（困难）', 'C o m p u t e r', 'ᴄᴏᴍᴘᴜᴛᴇʀ' /* small capitals */, '𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫' /* mathematical bold */, 'Cօmputer' /* Armenian oh */];

/** Characters that hide, turn or fake text, and what the 400 must say. */
const hidden: [string, string, RegExp][] = [
  ['right-to-left override', 'Ann\u202Enoxin', /invisible or direction-changing/],
  ['left-to-right embedding', '\u202AAnn', /invisible or direction-changing/],
  ['right-to-left isolate', 'Ann\u2067x', /invisible or direction-changing/],
  ['pop directional isolate', 'Ann\u2069', /invisible or direction-changing/],
  ['right-to-left mark', 'Ann\u200F', /invisible or direction-changing/],
  ['Arabic letter mark', 'Ann\u061C', /invisible or direction-changing/],
  ['zero-width space', 'Com\u200Bputer', /invisible or direction-changing/],
  ['zero-width joiner', 'Ann\u200D', /invisible or direction-changing/],
  ['word joiner', 'Ann\u2060', /invisible or direction-changing/],
  ['byte order mark', '\uFEFFAnn', /invisible or direction-changing/],
  ['soft hyphen', 'An\u00ADn', /invisible or direction-changing/],
  ['Hangul filler (a blank name)', '\u3164', /invisible or direction-changing/],
  ['variation selector', 'Ann\uFE0F', /invisible or direction-changing/],
  ['tag characters', 'Ann\u{E0041}\u{E0042}', /invisible or direction-changing/],
  ['blank Braille pattern (a blank name)', '\u2800', /invisible or direction-changing/],
  ['combining grapheme joiner', 'An\u034Fn', /invisible or direction-changing/],
  ['NUL', 'Ann\u0000', /control characters/],
  ['newline', 'Ann\nBen', /control characters/],
  ['tab', 'Ann\tBen', /control characters/],
  ['DEL', 'Ann\u007F', /control characters/],
  ['C1 control', 'Ann\u0085', /control characters/],
  ['line separator', 'Ann\u2028Ben', /control characters/],
  ['private use', 'Ann\uE000', /private-use, unassigned or broken/],
  ['unassigned', 'Ann\u0378', /private-use, unassigned or broken/],
  ['lone surrogate', 'Ann\uD800', /private-use, unassigned or broken/],
  ['piled accents', 'Ann' + '\u0301'.repeat(12), /more than 4 accents/],
  ['only spaces', ' \u00A0\u3000 ', /1 to 40/],
  ['too long', 'x'.repeat(41), /1 to 40/],
];

describe('the rule', () => {
  it('refuses the computer as every language of the client shows it, and its spoofs', () => {
    expect(computerAsShown.length).toBeGreaterThanOrEqual(3 * 10);
    for (const name of [...computerAsShown, ...computerSpoofs]) expect(isComputerName(name), name).toBe(true);
  });

  it('keeps names that only contain or resemble the word, the roles, and real scripts', () => {
    for (const name of ['Computer Bob', 'Computerfan', 'Ann', 'Nixon', 'Editor', '主编', 'Zoë', 'Nguyễn Văn A', 'محمد', 'Ἀριστοτέλης', '👍🏽 Ann', 'Компьютер']) expect(checkName(name), name).toEqual({ name });
  });

  it('stores the tidy form: NFC, one space for any run of white space, trimmed', () => {
    expect(checkName('  Zoe\u0308 \u00A0\u3000 Q  ')).toEqual({ name: 'Zoë Q' });
  });
});

describe('names over HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded');
  });
  afterAll(async () => t?.stop());

  it('a join with a spoofed or hidden name is a 400 naming playerName and the reason, and the seat stays free', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const cases: [string, string, RegExp][] = [...computerSpoofs.map((n): [string, string, RegExp] => [n, n, /computer's name/]), ...computerAsShown.map((n): [string, string, RegExp] => [n, n, /computer's name/]), ...hidden];
    for (const [what, name, reason] of cases) {
      const r = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: name });
      expect(r.status, what).toBe(400);
      expect(r.body.error, what).toMatch(/^playerName /);
      expect(r.body.error, what).toMatch(reason);
    }
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0]).toEqual({ id: 0 });
  });

  it('update and rename refuse the same names under newName; the stored name is the tidy one', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const joined = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: '  Ann \u00A0 Lee ' });
    expect(joined.status).toBe(200);
    const credentials = joined.body.playerCredentials;
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0].name).toBe('Ann Lee');
    for (const route of ['update', 'rename'])
      for (const [what, name, reason] of [['Computer', 'Computer', /computer's name/], ['电脑（困难）', '电脑（困难）', /computer's name/], ...hidden.slice(0, 4)] as [string, string, RegExp][]) {
        const r = await api(t.url, `/games/watergate/${matchID}/${route}`, { playerID: '0', credentials, newName: name });
        expect(r.status, `${route} ${what}`).toBe(400);
        expect(r.body.error, `${route} ${what}`).toMatch(/^newName /);
        expect(r.body.error, `${route} ${what}`).toMatch(reason);
      }
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0].name).toBe('Ann Lee');
    expect((await api(t.url, `/games/watergate/${matchID}/rename`, { playerID: '0', credentials, newName: 'Zoe\u0308' })).status).toBe(200);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0].name).toBe('Zoë');
  });
});
