import { ALL, EVENTS } from './types.ts';

/**
 * The events a webhook subscribes to: "all" (`["*"]`, future types included) or a choice among
 * Format A's names (docs/webhooks.md). Controlled: `value` is what will be sent as `events`.
 */
export function EventPicker({ value, onChange }: { value: string[]; onChange(events: string[]): void }) {
  const all = value.includes(ALL);
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value.filter((e) => e !== name), name] : value.filter((e) => e !== name));
  return (
    <fieldset className="wh-events">
      <legend>Events</legend>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? [ALL] : [])} />
        <span>
          All events <span className="muted">(including types added in later versions)</span>
        </span>
      </label>
      <div className="wh-event-list">
        {EVENTS.map((ev) => (
          <label key={ev.name} className="check">
            <input
              type="checkbox"
              name="events"
              value={ev.name}
              disabled={all}
              checked={all || value.includes(ev.name)}
              onChange={(e) => toggle(ev.name, e.target.checked)}
            />
            <span>
              <code>{ev.name}</code> <span className="muted">{ev.what}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
