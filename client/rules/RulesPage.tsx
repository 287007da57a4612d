/** The rules reference in the player's language: the rules summary and every card, searchable. */
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CARDS, DECKS, type PlayerID } from '../../game';
import { Card } from '../board/Card';
import { currentLanguage, type Language } from '../i18n';
import { cardActionLines, cardName, historyNote } from '../i18n/words';

const SUMMARIES: Record<Language, () => Promise<{ sections: [string, string][] }>> = {
  en: () => import('./summary/en'),
  'pt-BR': () => import('./summary/pt-BR'),
  'zh-CN': () => import('./summary/zh-CN'),
};

export default function RulesPage(): ReactNode {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const q = useDeferredValue(query).trim().toLowerCase();
  const lang = currentLanguage();
  const [sections, setSections] = useState<[string, string][]>([]);
  useEffect(() => {
    let live = true;
    void SUMMARIES[lang]().then((m) => live && setSections(m.sections));
    return () => {
      live = false;
    };
  }, [lang]);
  const hit = (...texts: string[]) => !q || texts.some((x) => x.toLowerCase().includes(q));
  const shownSections = sections.filter(([h, body]) => hit(h, body));
  const cardsOf = (side: PlayerID) =>
    DECKS[side].filter((id) => {
      const c = CARDS[id];
      return hit(cardName(t, id), c.name, historyNote(t, id), t(`cardType.${c.type}`), ...cardActionLines(t, c));
    });
  const editor = cardsOf('0');
  const nixon = cardsOf('1');
  return (
    <div className="rules">
      <h1>{t('rules.title')}</h1>
      <label className="field search">
        <span>{t('rules.search')}</span>
        <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} data-rules-search />
      </label>
      {shownSections.length > 0 && (
        <section className="panel">
          <h2>{t('rules.summary')}</h2>
          <dl className="rules-summary">
            {shownSections.map(([h, body]) => (
              <div key={h}>
                <dt>{h}</dt>
                <dd>{body}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {[
        ['rules.editorCards', editor],
        ['rules.nixonCards', nixon],
      ].map(([title, ids]) =>
        (ids as string[]).length > 0 ? (
          <section key={title as string} className="panel">
            <h2>{t(title as string)}</h2>
            <div className="card-grid">
              {(ids as string[]).map((id) => (
                <Card key={id} id={id} />
              ))}
            </div>
          </section>
        ) : null,
      )}
      {shownSections.length + editor.length + nixon.length === 0 && <p className="hint">{t('rules.noMatch')}</p>}
    </div>
  );
}
