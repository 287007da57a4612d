/**
 * An event's round start reaches its players by e-mail (docs/EVENTS.md "Round notices"): through the real
 * SMTP server of test/server/smtp.ts, each player with a verified address away from the board gets one
 * message naming their game, in their language; a player without an address gets none, and the runner's
 * own `onRound` hook is still called. The second game of a paired deal, made when the first ends, is
 * mailed to both its players the same way (here a paired challenge's: the runner makes both alike).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoundStart } from '../../server/events/runner';
import { signUp, type Signed } from './account-helpers';
import { api, startTestServer, until, type TestServer } from './helpers';
import { linkToken, smtpServer } from './smtp';
import { getEvent, resign, seatOf } from './event-helpers';

describe('round-start notices (embedded)', () => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let t: TestServer;
  const announced: RoundStart[] = [];
  beforeAll(async () => {
    smtp = await smtpServer();
    t = await startTestServer('embedded', {
      mail: { smtpUrl: smtp.url, from: 'Watergate <noreply@watergate.example>', pollMs: 200 },
      limits: { mail: { points: 1000, seconds: 60 } },
      events: { tickMs: 150, noShowMs: 600_000, onRound: (r) => announced.push(r) },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  async function withAddress(username: string, email: string, lang?: string): Promise<Signed> {
    const s = await signUp(t.url, username);
    expect((await s.call('/auth/email', { email, ...(lang ? { lang } : {}) })).status).toBe(200);
    await until(() => smtp.to(email).length === 1, 'the verification e-mail', 30_000);
    const v = await api(t.url, '/auth/email/verify', { token: linkToken(smtp.to(email)[0].text, 'verify-email') }, { origin: t.url });
    expect(v.status).toBe(200);
    return s;
  }

  it("each player of a round with a verified address is mailed its game when the round starts, in the player's language", async () => {
    const ana = await withAddress('RoundAna', 'ana@example.org');
    const bia = await withAddress('RoundBia', 'bia@example.org', 'pt-BR');
    const cy = await signUp(t.url, 'RoundCy'); // no address: nothing to send
    const dee = await signUp(t.url, 'RoundDee');
    const made = await ana.call('/api/tournaments', { name: 'Round notices', rounds: 1, clock: 'none', rated: false });
    expect(made.status).toBe(200);
    const id = made.body.id as string;
    for (const p of [ana, bia, cy, dee]) expect((await p.call(`/api/tournaments/${id}/join`, {})).status).toBe(200);
    expect((await ana.call(`/api/tournaments/${id}/start`, {})).status).toBe(200);
    await until(() => announced.some((r) => r.eventID === id), 'the round announced', 30_000);
    await until(() => smtp.to('ana@example.org').length === 2 && smtp.to('bia@example.org').length === 2, 'both round e-mails', 30_000);
    const e = await getEvent(ana, id);
    const gameOf = (u: string) => e.rounds[0].find((g): g is { matchID: string; editor: string; nixon: string; seed: string; result: string | null } => 'matchID' in g && (g.editor === u || g.nixon === u))!;
    const [a, b] = [smtp.to('ana@example.org')[1], smtp.to('bia@example.org')[1]];
    expect(a.subject).toContain('tournament round has started');
    expect(a.text).toContain(`#/match/${gameOf('RoundAna').matchID}`);
    expect(b.subject).toContain('rodada do torneio');
    expect(b.text).toContain(`#/match/${gameOf('RoundBia').matchID}`);
    // Nothing private in them: no other player's address.
    expect(a.text).not.toContain('bia@example.org');
    // One each, however long the round runs.
    await new Promise((r) => setTimeout(r, 1_000));
    expect([smtp.to('ana@example.org').length, smtp.to('bia@example.org').length]).toEqual([2, 2]);
  }, 90_000);

  it('the second game of a paired challenge is mailed to both players when the first ends, once, in their languages', async () => {
    const eva = await withAddress('PairEva', 'eva@example.org');
    const flo = await withAddress('PairFlo', 'flo@example.org', 'zh-CN');
    const pairMails = (to: string) => smtp.to(to).filter((m) => /second game of your pair|第二局/.test(m.subject));
    const sent = await eva.call('/api/challenge/PairFlo', { paired: true, side: 'editor', clock: 'none' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.id as string;
    const acc = await flo.call(`/api/challenge/${id}/accept`, {});
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const first = acc.body.matchID as string;
    // While the first game runs there is no second game to tell of.
    await new Promise((r) => setTimeout(r, 600));
    expect([pairMails('eva@example.org').length, pairMails('flo@example.org').length]).toEqual([0, 0]);
    const s1 = await seatOf(flo, first);
    await resign(t.url, first, s1.playerID, s1.playerCredentials);
    await until(async () => (await eva.call(`/api/challenge/${id}`)).body.pair.games.length === 2, 'the second game of the pair', 30_000);
    const second = (await eva.call(`/api/challenge/${id}`)).body.pair.games[1].matchID as string;
    await until(() => pairMails('eva@example.org').length === 1 && pairMails('flo@example.org').length === 1, 'both pair e-mails', 30_000);
    const [e, f] = [pairMails('eva@example.org')[0], pairMails('flo@example.org')[0]];
    expect(e.subject).toContain(second);
    expect(e.text).toContain('same deal, with sides swapped');
    expect(e.text).toContain(`#/match/${second}`);
    expect(f.subject).toContain('第二局');
    expect(f.text).toContain(`#/match/${second}`);
    // Nothing of the deal in them (its seed stays on the server), nor the other player's address.
    expect(e.text).not.toContain('flo@example.org');
    await new Promise((r) => setTimeout(r, 1_000));
    expect([pairMails('eva@example.org').length, pairMails('flo@example.org').length]).toEqual([1, 1]);
  }, 90_000);
});
