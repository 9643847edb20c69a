import { isCalendarDate, MAX_HOLIDAYS } from '@parley/contract/business-hours';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDate } from '../../shell/dates.ts';

/** The days the team is away whatever the week says, in the workspace's time zone. */
export function HolidaysEditor(props: {
  holidays: string[];
  readOnly: boolean;
  error?: string;
  onChange(holidays: string[]): void;
}) {
  const { holidays, readOnly } = props;
  const { t } = useTranslation('business-hours');
  const [adding, setAdding] = useState('');
  const add = () => {
    if (!isCalendarDate(adding)) return;
    props.onChange([...new Set([...holidays, adding])].sort());
    setAdding('');
  };
  return (
    <fieldset className="bh-holidays">
      <legend>{t('holidays.title')}</legend>
      {holidays.length === 0 && <p className="muted">{t('holidays.none')}</p>}
      {holidays.length > 0 && (
        <ul className="list" aria-label={t('holidays.title')}>
          {holidays.map((d) => (
            <li key={d} className="row">
              <span>{formatCalendarDate(d)}</span>
              {!readOnly && (
                <button
                  type="button"
                  aria-label={t('holidays.removeDay', { date: d })}
                  onClick={() => props.onChange(holidays.filter((x) => x !== d))}
                >
                  {t('holidays.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {props.error && <p className="error st-hint">{props.error}</p>}
      {!readOnly && holidays.length < MAX_HOLIDAYS && (
        <div className="row">
          <label htmlFor="bh-holiday">{t('holidays.add')}</label>
          <input id="bh-holiday" type="date" value={adding} onChange={(e) => setAdding(e.target.value)} />
          <button type="button" onClick={add} disabled={!isCalendarDate(adding)}>
            {t('holidays.addButton')}
          </button>
        </div>
      )}
    </fieldset>
  );
}
