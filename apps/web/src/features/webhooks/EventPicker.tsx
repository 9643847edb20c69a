import { useTranslation } from 'react-i18next';
import { ALL, EVENT_NAMES, eventMeaning } from './types.ts';

/**
 * The events a webhook subscribes to: "all" (`["*"]`, future types included) or a choice among
 * Format A's names (docs/webhooks.md). Controlled: `value` is what will be sent as `events`.
 */
export function EventPicker({ value, onChange }: { value: string[]; onChange(events: string[]): void }) {
  const { t } = useTranslation('webhooks');
  const all = value.includes(ALL);
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value.filter((e) => e !== name), name] : value.filter((e) => e !== name));
  return (
    <fieldset className="wh-events">
      <legend>{t('picker.legend')}</legend>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? [ALL] : [])} />
        <span>
          {t('picker.all')} <span className="muted">{t('picker.allHint')}</span>
        </span>
      </label>
      <div className="wh-event-list">
        {EVENT_NAMES.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              name="events"
              value={name}
              disabled={all}
              checked={all || value.includes(name)}
              onChange={(e) => toggle(name, e.target.checked)}
            />
            <span>
              <code>{name}</code> <span className="muted">{eventMeaning(name)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
