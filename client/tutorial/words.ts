/** The tutorial's words (locales/tutorial), under `tutorial.*`: loaded with its page only, in each language chosen. */
import { addWords, type Language } from '../i18n';
import type { TutorialTranslation } from '../i18n/locales/types';

const LOADERS: Record<Language, () => Promise<{ default: TutorialTranslation }>> = {
  en: () => import('../i18n/locales/tutorial/en') as unknown as Promise<{ default: TutorialTranslation }>,
  'pt-BR': () => import('../i18n/locales/tutorial/pt-BR'),
  'zh-CN': () => import('../i18n/locales/tutorial/zh-CN'),
};

export const loadTutorialWords = (): Promise<void> => addWords(async (lng) => ({ tutorial: (await LOADERS[lng]()).default }));
