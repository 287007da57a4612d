/** The page frame: header with navigation and the language switch, the reconstruction notice, and the routes. */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, loadPageWords, setLanguage, type Language } from './i18n';
import { useRoute } from './route';
import MatchPage from './lobby/MatchPage';
import { useAccount } from './account/session';
import { useOnline } from './pwa';

/** A page's module once its words (locales/pages) are in too. */
const withPageWords = <M,>(page: Promise<M>): Promise<M> => Promise.all([page, loadPageWords()]).then(([m]) => m);

// The local mode carries boardgame.io's Debug panel: loaded only when a developer opens it.
const LocalPage = lazy(() => withPageWords(import('./local/LocalPage')));
// The play page is in the main bundle; the lobby, the rules reference and local mode load on demand.
const LobbyPage = lazy(() => withPageWords(import('./lobby/LobbyPage')));
const RulesPage = lazy(() => withPageWords(import('./rules/RulesPage')));
// The tutorial: its page, its words (locales/tutorial) and its scripted game load only when opened.
const TutorialPage = lazy(() => withPageWords(Promise.all([import('./tutorial/TutorialPage'), import('./tutorial/words').then((w) => w.loadTutorialWords())]).then(([m]) => m)));
// A finished game's replay: its page, words and boardgame.io's reducer load only when opened.
const ReplayPage = lazy(() => withPageWords(import('./replay/ReplayPage')));
// A downloaded game opened from the device (its page is the replay's chunk: no second copy).
const ReplayFromFile = lazy(() => withPageWords(import('./replay/ReplayPage').then((m) => ({ default: m.ReplayFromFile }))));
// Accounts, profiles (with their chart) and the leaderboard: each on demand.
const AccountPage = lazy(() => withPageWords(import('./account/AccountPage')));
const ProfilePage = lazy(() => withPageWords(import('./account/ProfilePage')));
const LeaderboardPage = lazy(() => withPageWords(import('./account/LeaderboardPage')));
// Events (Swiss tournaments): the list with the create form, and one event's standings.
const EventsPage = lazy(() => withPageWords(import('./events/EventsPage')));
const SeasonsPage = lazy(() => withPageWords(import('./seasons/SeasonsPage')));
const EventPage = lazy(() => withPageWords(import('./events/EventPage')));
const ResetPage = lazy(() => withPageWords(import('./account/MailPages').then((m) => ({ default: m.ResetPage }))));
const VerifyEmailPage = lazy(() => withPageWords(import('./account/MailPages').then((m) => ({ default: m.VerifyEmailPage }))));

/** The pages that work with the network off (the service worker keeps the app: client/sw.ts); the others need the server. */
const OFFLINE_PAGES: ReadonlySet<string> = new Set(['local', 'rules', 'tutorial', 'replayFile', 'missing']);

/** The reconstruction notice, once hidden, stays hidden in this browser (every card still shows its provenance). */
const NOTICE = 'watergate.noticeHidden';

export function App(): ReactNode {
  const { t, i18n } = useTranslation();
  const route = useRoute();
  const lang = currentLanguage();
  const [notice, setNotice] = useState(() => localStorage.getItem(NOTICE) !== '1');
  // Folded to one line until asked for: on a phone or a short screen it would take the board's room.
  const [noticeOpen, setNoticeOpen] = useState(false);
  // On a phone the header's links sit in a menu (styles.css, phone section); a new page closes it.
  const [menu, setMenu] = useState(false);
  const address = window.location.hash;
  useEffect(() => setMenu(false), [address]);
  const account = useAccount();
  const online = useOnline();
  useEffect(() => {
    document.documentElement.lang = lang; // screen readers pick the voice from it
  }, [lang]);
  return (
    <div className="app" data-lang={lang}>
      <header className="top">
        <a className="brand" href="#/">
          <span className="brand-mark" aria-hidden="true">
            ◉
          </span>{' '}
          <span className="brand-name">{t('app.title')}</span>
        </a>
        <button type="button" className="menu-toggle" aria-expanded={menu} aria-controls="main-nav" onClick={() => setMenu(!menu)}>
          <span aria-hidden="true">☰</span> {t('app.menu')}
        </button>
        <nav aria-label="main" id="main-nav" data-open={menu || undefined} onClick={(e) => (e.target as Element).closest('a') && setMenu(false)}>
          <a href="#/" aria-current={route.page === 'lobby' ? 'page' : undefined}>
            {t('app.lobby')}
          </a>
          <a href="#/rules" aria-current={route.page === 'rules' ? 'page' : undefined}>
            {t('app.rules')}
          </a>
          <a href="#/tutorial" aria-current={route.page === 'tutorial' ? 'page' : undefined}>
            {t('app.tutorial')}
          </a>
          <a href="#/leaderboard" aria-current={route.page === 'leaderboard' ? 'page' : undefined}>
            {t('app.leaderboard')}
          </a>
          <a href="#/events" aria-current={route.page === 'events' || route.page === 'event' ? 'page' : undefined}>
            {t('app.events')}
          </a>
          <a href="#/seasons" aria-current={route.page === 'seasons' ? 'page' : undefined}>
            {t('app.seasons')}
          </a>
          <a href="#/account" aria-current={route.page === 'account' ? 'page' : undefined} data-account-link>
            {account ?? t('app.signIn')}
          </a>
        </nav>
        <label className="lang">
          <span className="sr-only">{t('app.language')}</span>
          <select value={lang} onChange={(e) => void setLanguage(e.target.value as Language)} aria-label={t('app.language')} key={i18n.language}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
      </header>
      {notice && (
        <p className="notice" role="note" data-open={noticeOpen || undefined}>
          <button type="button" className="notice-text" aria-expanded={noticeOpen} title={noticeOpen ? undefined : t('app.readNotice')} onClick={() => setNoticeOpen(!noticeOpen)}>
            {t('app.reconstructed')}
          </button>
          <button type="button" className="notice-close" aria-label={t('app.hideNotice')} onClick={() => (localStorage.setItem(NOTICE, '1'), setNotice(false))}>
            ×
          </button>
        </p>
      )}
      {!online && !OFFLINE_PAGES.has(route.page) && (
        <p className="notice offline-banner" role="status" data-network-offline>
          <span>
            {t('offline.needsServer')} <a href="#/local">{t('app.local')}</a> · <a href="#/tutorial">{t('app.tutorial')}</a> · <a href="#/rules">{t('app.rules')}</a>
          </span>
        </p>
      )}
      <main>
        <Suspense fallback={<p className="loading">{t('app.loading')}</p>}>
          {route.page === 'lobby' && <LobbyPage />}
          {route.page === 'match' && <MatchPage matchID={route.matchID} key={route.matchID} />}
          {route.page === 'replay' && <ReplayPage matchID={route.matchID} key={route.matchID} />}
          {route.page === 'replayFile' && <ReplayFromFile />}
          {route.page === 'rules' && <RulesPage />}
          {route.page === 'tutorial' && <TutorialPage />}
          {route.page === 'local' && <LocalPage />}
          {route.page === 'account' && <AccountPage />}
          {route.page === 'player' && <ProfilePage username={route.username} key={route.username} />}
          {route.page === 'leaderboard' && <LeaderboardPage />}
          {route.page === 'events' && <EventsPage />}
          {route.page === 'seasons' && <SeasonsPage id={route.id} key={route.id ?? ''} />}
          {route.page === 'event' && <EventPage id={route.id} key={route.id} />}
          {route.page === 'reset' && <ResetPage token={route.token} key={route.token} />}
          {route.page === 'verify-email' && <VerifyEmailPage token={route.token} key={route.token} />}
          {route.page === 'missing' && <p>{t('app.notFound')}</p>}
        </Suspense>
      </main>
    </div>
  );
}
