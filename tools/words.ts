/** The client's translations outside the browser, for tools and tests that render words (cards, prompts, the record). */
import i18next, { type TFunction } from 'i18next';
import { bundles } from '../client/i18n';
import enMessages from '../client/i18n/locales/en';
import ptBR from '../client/i18n/locales/pt-BR';
import zhCN from '../client/i18n/locales/zh-CN';
import type { Translation } from '../client/i18n/locales/types';

export const resources = {
  en: bundles(enMessages as unknown as Translation),
  'pt-BR': bundles(ptBR),
  'zh-CN': bundles(zhCN),
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
