/**
 * i18next set up for the three languages. Each language is its own chunk, loaded when chosen (the page
 * loads exactly one: keeps the play page small). The choice is remembered per browser (localStorage "watergate.lang");
 * a first visit follows the browser's languages.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Translation } from './locales/types';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'pt-BR', label: 'Português (Brasil)' },
  { code: 'zh-CN', label: '中文 (简体)' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_KEY = 'watergate.lang';

/** Maps whatever the browser says (pt, pt-PT, zh, zh-Hans-CN…) onto one of our three languages. */
export function supported(code: string | undefined | null): Language {
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

/** The "log" namespace holds the game record's keys flat (they contain dots, e.g. "draw.cards"). */
export const bundles = (t: Translation) => ({ translation: t, log: t.log as Record<string, string> });

export const i18n = i18next.createInstance();

async function ensureLoaded(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const { default: t } = await LOADERS[lng]();
  const b = bundles(t);
  i18n.addResourceBundle(lng, 'translation', b.translation, true, true);
  i18n.addResourceBundle(lng, 'log', b.log, true, true);
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
