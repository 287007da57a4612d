/** The client's translations outside the browser, for tools and tests that render words (cards, prompts, the record). */
import i18next, { type TFunction } from 'i18next';
import { bundles } from '../client/i18n';
import enMessages from '../client/i18n/locales/en';
import ptBR from '../client/i18n/locales/pt-BR';
import zhCN from '../client/i18n/locales/zh-CN';
import enPages from '../client/i18n/locales/pages/en';
import ptBRPages from '../client/i18n/locales/pages/pt-BR';
import zhCNPages from '../client/i18n/locales/pages/zh-CN';
import enTutorial from '../client/i18n/locales/tutorial/en';
import ptBRTutorial from '../client/i18n/locales/tutorial/pt-BR';
import zhCNTutorial from '../client/i18n/locales/tutorial/zh-CN';
import type { PageTranslation, Translation, TutorialTranslation } from '../client/i18n/locales/types';

/** The board's, the pages' and the tutorial's words under one set of keys, as the browser has them once all loaded. */
const withPages = (t: Translation, p: PageTranslation, tutorial: TutorialTranslation): Translation => {
  const out: Record<string, unknown> = { ...t, tutorial };
  for (const [k, v] of Object.entries(p)) out[k] = { ...(out[k] as object | undefined), ...(v as object) };
  return out as Translation;
};

export const resources = {
  en: bundles(withPages(enMessages as unknown as Translation, enPages as unknown as PageTranslation, enTutorial as unknown as TutorialTranslation)),
  'pt-BR': bundles(withPages(ptBR, ptBRPages, ptBRTutorial)),
  'zh-CN': bundles(withPages(zhCN, zhCNPages, zhCNTutorial)),
};

/** A translator for one language, and the keys it was asked for but did not have. */
export async function translator(lng: string): Promise<{ t: TFunction; missing: string[] }> {
  const missing: string[] = [];
  const inst = i18next.createInstance();
  await inst.init({
    resources,
    lng,
    fallbackLng: false,
    ns: ['translation', 'log'],
    interpolation: { escapeValue: false },
    saveMissing: true,
    // Names of people and places fall back to the data on purpose (defaultValue); anything else missing is a bug.
    missingKeyHandler: (_l, ns, key) => {
      if (!/^(cardNames|informants)\./.test(key)) missing.push(`${ns}:${key}`);
    },
  });
  return { t: inst.t, missing };
}
