/** A translation has the shape of the English messages, with every leaf a string (plural suffixes may differ). */
import type { Messages } from './en';

type Loose<T> = T extends string
  ? string
  : T extends readonly (readonly string[])[]
    ? string[][]
    : T extends Record<string, string>
      ? Record<string, string>
      : { [K in keyof T]?: Loose<T[K]> } & Record<string, unknown>;

export type Translation = Loose<Messages>;

/** The words of the lobby, rules and local pages (locales/pages/*), merged into the same keys when loaded. */
import type { PageMessages } from './pages/en';
export type PageTranslation = Loose<PageMessages>;

/** The tutorial's words (locales/tutorial/*), under `tutorial.*`, loaded with its page only. */
import type { TutorialMessages } from './tutorial/en';
export type TutorialTranslation = Loose<TutorialMessages>;
