import { MAX_RANGES_PER_DAY } from '@parley/contract/business-hours';
import { useTranslation } from 'react-i18next';
import { DAYS, type Range, type Week } from './types.ts';

/**
 * The seven days of a week, each a list of opening ranges ("HH:MM" to "HH:MM"; 24:00 ends a day):
 * add and remove ranges, an empty day is closed (docs/business-hours.md "Rules").
 */
export function WeekEditor(props: {
  week: Week;
  readOnly: boolean;
  errors: Record<string, string>;
  onChange(week: Week): void;
}) {
  const { week, readOnly, errors } = props;
  const { t } = useTranslation('business-hours');
  const setDay = (key: keyof Week, ranges: Range[]) => props.onChange({ ...week, [key]: ranges });
  return (
    <div className="bh-week">
      {DAYS.map((key) => {
        const name = t(`days.${key}`);
        const ranges = week[key];
        const dayError = errors[`week.${key}`];
        return (
          <fieldset key={key} className="bh-day" aria-label={name}>
            <legend>{name}</legend>
            {ranges.length === 0 && <p className="muted">{t('week.closed')}</p>}
            {ranges.map((r, i) => {
              const at = t('week.range', { day: name, n: i + 1 });
              const error = errors[`week.${key}.${i}.open`] ?? errors[`week.${key}.${i}.close`];
              const edit = (patch: Partial<Range>) =>
                setDay(
                  key,
                  ranges.map((x, j) => (j === i ? { ...x, ...patch } : x)),
                );
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no id; their place is who they are
                <div key={i} className="row bh-range">
                  <input
                    aria-label={t('week.opens', { range: at })}
                    value={r.open}
                    placeholder="09:00"
                    maxLength={5}
                    inputMode="numeric"
                    readOnly={readOnly}
                    aria-invalid={error ? true : undefined}
                    onChange={(e) => edit({ open: e.target.value })}
                  />
                  <span aria-hidden="true">{t('week.to')}</span>
                  <input
                    aria-label={t('week.closes', { range: at })}
                    value={r.close}
                    placeholder="17:00"
                    maxLength={5}
                    inputMode="numeric"
                    readOnly={readOnly}
                    aria-invalid={error ? true : undefined}
                    onChange={(e) => edit({ close: e.target.value })}
                  />
                  {!readOnly && (
                    <button
                      type="button"
                      aria-label={t('week.removeRange', { range: at })}
                      onClick={() =>
                        setDay(
                          key,
                          ranges.filter((_, j) => j !== i),
                        )
                      }
                    >
                      {t('week.remove')}
                    </button>
                  )}
                  {error && <p className="error st-hint">{error}</p>}
                </div>
              );
            })}
            {dayError && <p className="error st-hint">{dayError}</p>}
            {!readOnly && ranges.length < MAX_RANGES_PER_DAY && (
              <button
                type="button"
                aria-label={t('week.addOn', { day: name })}
                onClick={() => {
                  const last = ranges.at(-1);
                  setDay(key, [
                    ...ranges,
                    last ? { open: last.close, close: '24:00' } : { open: '09:00', close: '17:00' },
                  ]);
                }}
              >
                {t('week.add')}
              </button>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
