/**
 * i18next set up for the three languages. Each language is its own chunk, loaded when chosen (the page
 * loads exactly one: keeps the play page small); the words only the lobby, rules and local pages show are a
 * second chunk per language, loaded with those pages (`loadPageWords`) under the same keys. The choice is remembered per browser (localStorage "watergate.lang");
 * a first visit follows the browser's languages.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { PageTranslation, Translation } from './locales/types';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'pt-BR', label: 'Português (Brasil)' },
  { code: 'zh-CN', label: '中文 (简体)' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];
const LANGUAGE_KEY = 'watergate.lang';

/** Maps whatever the browser says (pt, pt-PT, zh, zh-Hans-CN…) onto one of our three languages. */
function supported(code: string | undefined | null): Language {
  const c = (code ?? '').toLowerCase();
  if (c.startsWith('pt')) return 'pt-BR';
  if (c.startsWith('zh')) return 'zh-CN';
  return 'en';
}

const LOADERS: Record<Language, () => Promise<{ default: Translation }>> = {
  en: () => import('./locales/en') as unknown as Promise<{ default: Translation }>,
  'pt-BR': () => import('./locales/pt-BR'),
  'zh-CN': () => import('./locales/zh-CN'),
};

const PAGE_LOADERS: Record<Language, () => Promise<{ default: PageTranslation }>> = {
  en: () => import('./locales/pages/en') as unknown as Promise<{ default: PageTranslation }>,
  'pt-BR': () => import('./locales/pages/pt-BR'),
  'zh-CN': () => import('./locales/pages/zh-CN'),
};
/** Once a page needed its words, every language switched to later brings them too. */
let pageWordsWanted = false;

/** Words a page loaded on demand brings itself (the tutorial's), for every language switched to afterwards. */
const ownWords: ((lng: Language) => Promise<void>)[] = [];

/** The "log" namespace holds the game record's keys flat (they contain dots, e.g. "draw.cards"). */
export const bundles = (t: Translation) => ({ translation: t, log: t.log as Record<string, string> });

export const i18n = i18next.createInstance();

const pagesLoaded = new Set<Language>();

async function ensureLoaded(lng: Language): Promise<void> {
  // Chinese text is drawn in Noto Serif SC from the build: its 101 slices are declared only once Chinese
  // is chosen, and the browser fetches only the slices holding characters on screen.
  if (lng === 'zh-CN' && typeof document !== 'undefined') await import('@fontsource-variable/noto-serif-sc/wght.css');
  if (!i18n.hasResourceBundle(lng, 'translation')) {
    const { default: t } = await LOADERS[lng]();
    const b = bundles(t);
    i18n.addResourceBundle(lng, 'translation', b.translation, true, true);
    i18n.addResourceBundle(lng, 'log', b.log, true, true);
  }
  if (pageWordsWanted && !pagesLoaded.has(lng)) {
    const { default: p } = await PAGE_LOADERS[lng]();
    i18n.addResourceBundle(lng, 'translation', p, true, false);
    pagesLoaded.add(lng);
  }
  for (const load of ownWords) await load(lng);
}

/** A page's own words (`load` gives one language's keys): loaded now in the current language, later in any other chosen. */
export async function addWords(load: (lng: Language) => Promise<Record<string, unknown>>): Promise<void> {
  const loaded = new Set<Language>();
  const ensure = async (lng: Language) => {
    if (loaded.has(lng)) return;
    i18n.addResourceBundle(lng, 'translation', await load(lng), true, false);
    loaded.add(lng);
  };
  ownWords.push(ensure);
  await ensure(currentLanguage());
}

/** The lobby, rules and local pages call this before they render (their route's lazy import waits for it). */
export async function loadPageWords(): Promise<void> {
  pageWordsWanted = true;
  await ensureLoaded(currentLanguage());
}

function remembered(): Language {
  try {
    const saved = localStorage.getItem(LANGUAGE_KEY);
    if (saved) return supported(saved);
  } catch {
    // storage blocked: fall through to the browser's languages
  }
  for (const l of navigator.languages ?? [navigator.language]) {
    const s = supported(l);
    if (s !== 'en' || l.toLowerCase().startsWith('en')) return s;
  }
  return 'en';
}

export async function initI18n(): Promise<void> {
  const lng = remembered();
  await i18n.use(initReactI18next).init({
    resources: {},
    lng,
    // Every language is complete (test/client/i18n.test.ts); names of people fall back to the data.
    fallbackLng: false,
    partialBundledLanguages: true,
    supportedLngs: LANGUAGES.map((l) => l.code),
    ns: ['translation', 'log'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false }, // React escapes
  });
  await setLanguage(lng, false);
}

export async function setLanguage(code: Language, remember = true): Promise<void> {
  await ensureLoaded(code);
  await i18n.changeLanguage(code);
  if (!remember) return;
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export function currentLanguage(): Language {
  return supported(i18n.resolvedLanguage ?? i18n.language);
}
