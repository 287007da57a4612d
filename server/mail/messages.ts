/**
 * The e-mails' words in the three languages of the client (en, pt-BR, zh-CN), plain text and HTML. Every
 * value put into HTML is escaped; subjects hold no value a player chose except a username (checked
 * letters, server/accounts/routes.ts) and match ids (server-made).
 */
export type MailLang = 'en' | 'pt-BR' | 'zh-CN';
export const MAIL_LANGS: readonly MailLang[] = ['en', 'pt-BR', 'zh-CN'];

/** The notice kinds a player can switch off one by one (account page, unsubscribe links). */
export const NOTICE_KINDS = ['turn', 'challenge', 'end', 'clock'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** A language from a client's choice or Accept-Language; English when none of ours. */
export function mailLang(raw: unknown): MailLang {
  const s = typeof raw === 'string' ? raw.slice(0, 200).toLowerCase() : '';
  for (const part of s.split(',')) {
    const c = part.trim();
    if (c.startsWith('pt')) return 'pt-BR';
    if (c.startsWith('zh')) return 'zh-CN';
    if (c.startsWith('en')) return 'en';
  }
  return 'en';
}

type Words = {
  verify: { subject: string; body: string };
  reset: { subject: string; body: string };
  turn: { subject: (m: string) => string; body: string };
  start: { subject: (m: string) => string; body: string };
  round: { subject: (m: string) => string; body: string };
  pair: { subject: (m: string) => string; body: string };
  challenge: { subject: (who: string) => string; body: (who: string) => string };
  end: { subject: (m: string) => string; won: string; lost: string; aborted: string; rating: (b: number, a: number) => string };
  clock: { subject: (m: string) => string; body: (left: string) => string };
  digest: { subject: (n: number) => string; body: string; match: (m: string) => string };
  open: string;
  unsubscribe: string;
  /** The unsubscribe page (GET shows a button, POST says it is done) and the kinds' names. */
  page: { ask: (kind: string) => string; button: string; done: (kind: string) => string; kinds: Record<NoticeKind, string> };
  footer: string;
  hours: (h: number) => string;
  minutes: (m: number) => string;
};

const WORDS: Record<MailLang, Words> = {
  en: {
    verify: { subject: 'Watergate: confirm your e-mail address', body: 'Open this link within 24 hours to confirm this address for your Watergate account. If you did not ask for it, ignore this message.' },
    reset: { subject: 'Watergate: set a new password', body: 'Someone (we hope you) asked to reset the password of your Watergate account. This link works once, within 30 minutes. Using it signs you out everywhere. If you did not ask for it, ignore this message.' },
    turn: { subject: (m) => `Watergate: your turn in match ${m}`, body: 'It is your turn.' },
    start: { subject: (m) => `Watergate: your game ${m} has started`, body: 'Your opponent has joined and the first decision is yours.' },
    round: { subject: (m) => `Watergate: a tournament round has started (match ${m})`, body: 'A new round of your tournament has started and your game is ready.' },
    pair: { subject: (m) => `Watergate: the second game of your pair has started (match ${m})`, body: 'The first game of your pair is over; the second is ready: the same deal, with sides swapped.' },
    challenge: { subject: (who) => `Watergate: ${who} challenges you`, body: (who) => `${who} challenges you to a game of Watergate.` },
    end: { subject: (m) => `Watergate: game ${m} is over`, won: 'You won.', lost: 'You lost.', aborted: 'The game was aborted.', rating: (b, a) => `Your rating: ${b} → ${a} (${a - b >= 0 ? '+' : ''}${a - b}).` },
    clock: { subject: (m) => `Watergate: your clock is running out in match ${m}`, body: (left) => `Your clock runs out in ${left}. Move before it does, or the game is lost on time.` },
    digest: { subject: (n) => (n === 1 ? 'Watergate: a match waits for your move' : `Watergate: ${n} matches wait for your move`), body: 'Your daily summary: it became your turn in these matches while you were away.', match: (m) => `Match ${m}` },
    page: {
      ask: (k) => `Stop e-mails from Watergate about ${k}?`,
      button: 'Unsubscribe',
      done: (k) => `Done: no more e-mails about ${k}. Your account page has every setting.`,
      kinds: { turn: 'your turn', challenge: 'challenges', end: 'finished games', clock: 'clocks running out' },
    },
    open: 'Open the match',
    unsubscribe: 'Stop these e-mails',
    footer: 'You receive this because you confirmed this address on your Watergate account.',
    hours: (h) => `${h} h`,
    minutes: (m) => `${m} min`,
  },
  'pt-BR': {
    verify: { subject: 'Watergate: confirme seu endereço de e-mail', body: 'Abra este link em até 24 horas para confirmar este endereço na sua conta do Watergate. Se você não pediu isso, ignore esta mensagem.' },
    reset: { subject: 'Watergate: defina uma nova senha', body: 'Alguém (esperamos que você) pediu para redefinir a senha da sua conta do Watergate. Este link funciona uma vez, em até 30 minutos. Usá-lo encerra todas as suas sessões. Se você não pediu isso, ignore esta mensagem.' },
    turn: { subject: (m) => `Watergate: sua vez na partida ${m}`, body: 'É a sua vez.' },
    start: { subject: (m) => `Watergate: sua partida ${m} começou`, body: 'Seu adversário entrou e a primeira decisão é sua.' },
    round: { subject: (m) => `Watergate: uma rodada do torneio começou (partida ${m})`, body: 'Uma nova rodada do seu torneio começou e a sua partida está pronta.' },
    pair: { subject: (m) => `Watergate: a segunda partida do seu par começou (partida ${m})`, body: 'A primeira partida do seu par terminou; a segunda está pronta: as mesmas cartas, com os lados trocados.' },
    challenge: { subject: (who) => `Watergate: ${who} desafia você`, body: (who) => `${who} desafia você para uma partida de Watergate.` },
    end: { subject: (m) => `Watergate: a partida ${m} terminou`, won: 'Você venceu.', lost: 'Você perdeu.', aborted: 'A partida foi anulada.', rating: (b, a) => `Sua classificação: ${b} → ${a} (${a - b >= 0 ? '+' : ''}${a - b}).` },
    clock: { subject: (m) => `Watergate: seu relógio está acabando na partida ${m}`, body: (left) => `Seu relógio acaba em ${left}. Jogue antes disso, ou a partida será perdida por tempo.` },
    digest: { subject: (n) => (n === 1 ? 'Watergate: uma partida espera sua jogada' : `Watergate: ${n} partidas esperam sua jogada`), body: 'Seu resumo diário: ficou sua vez nestas partidas enquanto você estava ausente.', match: (m) => `Partida ${m}` },
    page: {
      ask: (k) => `Parar os e-mails do Watergate sobre ${k}?`,
      button: 'Cancelar inscrição',
      done: (k) => `Pronto: nenhum e-mail a mais sobre ${k}. A página da sua conta tem todas as opções.`,
      kinds: { turn: 'a sua vez', challenge: 'desafios', end: 'partidas terminadas', clock: 'relógios acabando' },
    },
    open: 'Abrir a partida',
    unsubscribe: 'Parar estes e-mails',
    footer: 'Você recebe isto porque confirmou este endereço na sua conta do Watergate.',
    hours: (h) => `${h} h`,
    minutes: (m) => `${m} min`,
  },
  'zh-CN': {
    verify: { subject: 'Watergate：确认你的电子邮件地址', body: '请在 24 小时内打开此链接，为你的 Watergate 账户确认此地址。如果不是你本人的请求，请忽略此邮件。' },
    reset: { subject: 'Watergate：设置新密码', body: '有人（希望是你）请求重置你的 Watergate 账户密码。此链接只能使用一次，30 分钟内有效。使用后你将在所有设备上退出登录。如果不是你本人的请求，请忽略此邮件。' },
    turn: { subject: (m) => `Watergate：对局 ${m} 轮到你了`, body: '轮到你了。' },
    start: { subject: (m) => `Watergate：你的对局 ${m} 已开始`, body: '你的对手已加入，第一个决定由你做出。' },
    round: { subject: (m) => `Watergate：赛事新一轮已开始（对局 ${m}）`, body: '你的赛事已开始新一轮，你的对局已就绪。' },
    pair: { subject: (m) => `Watergate：你的对局组第二局已开始（对局 ${m}）`, body: '你的对局组第一局已结束；第二局已就绪：同一副牌，双方交换阵营。' },
    challenge: { subject: (who) => `Watergate：${who} 向你发起挑战`, body: (who) => `${who} 邀请你下一局 Watergate。` },
    end: { subject: (m) => `Watergate：对局 ${m} 已结束`, won: '你赢了。', lost: '你输了。', aborted: '对局已取消。', rating: (b, a) => `你的等级分：${b} → ${a}（${a - b >= 0 ? '+' : ''}${a - b}）。` },
    clock: { subject: (m) => `Watergate：对局 ${m} 中你的时间快用完了`, body: (left) => `你的时间将在 ${left} 后用完。请在此之前走棋，否则将超时判负。` },
    digest: { subject: (n) => `Watergate：${n} 局对局在等你走棋`, body: '你的每日摘要：你不在时，以下对局轮到了你。', match: (m) => `对局 ${m}` },
    page: {
      ask: (k) => `不再接收 Watergate 关于${k}的邮件？`,
      button: '退订',
      done: (k) => `已完成：不会再发送关于${k}的邮件。所有设置都在你的账户页面。`,
      kinds: { turn: '轮到你', challenge: '挑战', end: '已结束的对局', clock: '时间快用完' },
    },
    open: '打开对局',
    unsubscribe: '不再接收此类邮件',
    footer: '你收到此邮件是因为你在 Watergate 账户中确认了此地址。',
    hours: (h) => `${h} 小时`,
    minutes: (m) => `${m} 分钟`,
  },
};

/** The unsubscribe page's words in a language (escaped for HTML by the caller). */
export const unsubscribeWords = (lang: MailLang, kind: NoticeKind) => {
  const p = WORDS[lang].page;
  return { ask: p.ask(p.kinds[kind]), button: p.button, done: p.done(p.kinds[kind]) };
};

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const esc = escapeHtml;

/** A message: its lines, its links with their labels, and (for notices) the unsubscribe link and footer. */
function compose(lang: MailLang, subject: string, lines: string[], links: { url: string; label: string }[], unsubscribe?: string): Rendered {
  const w = WORDS[lang];
  const text = [...lines, '', ...links.map((l) => `${l.label}: ${l.url}`), ...(unsubscribe ? ['', '--', w.footer, `${w.unsubscribe}: ${unsubscribe}`] : [])].join('\n');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">${lines.map((l) => `<p>${esc(l)}</p>`).join('')}
${links.map((l) => `<p><a href="${esc(l.url)}">${esc(l.label)}</a></p>`).join('')}${unsubscribe ? `<hr><p style="font-size:small;color:#555">${esc(w.footer)} <a href="${esc(unsubscribe)}">${esc(w.unsubscribe)}</a></p>` : ''}</body></html>`;
  return { subject, text, html };
}

export type Message =
  | { kind: 'verify' | 'reset'; link: string }
  | { kind: 'turn' | 'start' | 'round' | 'pair'; matchID: string; link: string; unsubscribe: string }
  | { kind: 'challenge'; from: string; link: string; unsubscribe: string }
  | { kind: 'end'; matchID: string; outcome: 'won' | 'lost' | 'aborted'; rating?: { before: number; after: number }; link: string; unsubscribe: string }
  | { kind: 'clock'; matchID: string; leftMs: number; link: string; unsubscribe: string }
  | { kind: 'digest'; matches: { matchID: string; link: string }[]; unsubscribe: string };

export function render(lang: MailLang, m: Message): Rendered {
  const w = WORDS[lang];
  switch (m.kind) {
    case 'verify':
    case 'reset':
      return compose(lang, w[m.kind].subject, [w[m.kind].body], [{ url: m.link, label: m.link }]);
    case 'turn':
    case 'start':
    case 'round':
    case 'pair':
      return compose(lang, w[m.kind].subject(m.matchID), [w[m.kind].body], [{ url: m.link, label: w.open }], m.unsubscribe);
    case 'challenge':
      return compose(lang, w.challenge.subject(m.from), [w.challenge.body(m.from)], [{ url: m.link, label: w.open }], m.unsubscribe);
    case 'end':
      return compose(lang, w.end.subject(m.matchID), [w.end[m.outcome], ...(m.rating ? [w.end.rating(m.rating.before, m.rating.after)] : [])], [{ url: m.link, label: w.open }], m.unsubscribe);
    case 'clock': {
      const mins = Math.max(1, Math.round(m.leftMs / 60_000));
      const left = mins >= 120 ? w.hours(Math.round(mins / 60)) : w.minutes(mins);
      return compose(lang, w.clock.subject(m.matchID), [w.clock.body(left)], [{ url: m.link, label: w.open }], m.unsubscribe);
    }
    case 'digest':
      return compose(lang, w.digest.subject(m.matches.length), [w.digest.body], m.matches.map((x) => ({ url: x.link, label: w.digest.match(x.matchID) })), m.unsubscribe);
  }
}
