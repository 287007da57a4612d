/** #/events: the newest events and, signed in, a form to create one (docs/EVENTS.md). */
import '../account/account.css';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventCreate, EventSummary } from '../../protocol/events';
import { useAccount } from '../account/session';
import { go } from '../route';
import { createEvent, eventRefusal, listEvents } from './api';

const CLOCKS = ['live', 'relaxed', 'none'] as const;

export default function EventsPage(): ReactNode {
  const { t } = useTranslation();
  const account = useAccount();
  const [events, setEvents] = useState<EventSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', rounds: 3, clock: 'live' as EventCreate['clock'], rated: true, paired: false });
  useEffect(() => {
    listEvents().then(setEvents, (e: unknown) => setError(eventRefusal(t, e)));
  }, [t]);
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    createEvent(form).then((r) => go(`#/events/${r.id}`), (e: unknown) => setError(eventRefusal(t, e)));
  };
  return (
    <div className="events-page">
      <h1>{t('events.title')}</h1>
      <p className="hint">{t('events.about')}</p>
      {error && <p className="error" role="alert">{error}</p>}
      {account ? (
        <form className="panel" onSubmit={submit} aria-labelledby="event-create">
          <h2 id="event-create">{t('events.create')}</h2>
          <label>
            {t('events.name')} <input required minLength={3} maxLength={60} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </label>
          <label>
            {t('events.rounds')} <input type="number" min={1} max={9} value={form.rounds} onChange={(e) => setForm({ ...form, rounds: Number(e.target.value) })} />
          </label>
          <label>
            {t('clock.label')}{' '}
            <select value={form.clock} onChange={(e) => setForm({ ...form, clock: e.target.value as EventCreate['clock'] })}>
              {CLOCKS.map((c) => (
                <option key={c} value={c}>
                  {t(`clock.${c}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input type="checkbox" checked={form.rated} onChange={(e) => setForm({ ...form, rated: e.target.checked })} /> {t('playNow.rated')}
          </label>
          <label>
            <input type="checkbox" checked={form.paired} onChange={(e) => setForm({ ...form, paired: e.target.checked })} /> {t('events.paired')}
          </label>
          <p className="hint">{t('events.pairedHint')}</p>
          <button type="submit">{t('events.createButton')}</button>
        </form>
      ) : (
        <p className="hint">
          <a href="#/account">{t('events.signIn')}</a>
        </p>
      )}
      <section className="panel" aria-labelledby="event-list">
        <h2 id="event-list">{t('events.list')}</h2>
        {!events && !error && <p>{t('app.loading')}</p>}
        {events?.length === 0 && <p className="hint">{t('events.none')}</p>}
        {events && events.length > 0 && (
          <ul className="event-list">
            {events.map((e) => (
              <li key={e.id} data-event={e.id}>
                <a href={`#/events/${e.id}`}>{e.name}</a> — {t(`events.status.${e.status}`)} · {t('events.playersCount', { count: e.players })} ·{' '}
                {t('events.roundOf', { round: e.round, total: e.totalRounds })}
                {e.paired ? ` · ${t('events.paired')}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
