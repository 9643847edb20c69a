import { Trans, useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format.ts';
import { type BillingSummary, dateOf } from './types.ts';

/**
 * Credits used against the period's allowance, with the two alert levels of docs/credits.md "Alerts" (about
 * 80% and 100%): below 80% plain, from 80% a warning, at 100% AI replies stop until the reset.
 */
export function CreditsMeter({ summary }: { summary: BillingSummary }) {
  const { t } = useTranslation('billing');
  const { used, limit, resetsAt } = summary.credits;
  const ratio = limit > 0 ? used / limit : 1;
  const level = ratio >= 1 ? 'full' : ratio >= 0.8 ? 'high' : 'ok';
  const resets = dateOf(resetsAt);
  return (
    <section className="card" aria-labelledby="meter-title">
      <h2 id="meter-title">{t('meter.title')}</h2>
      <p className="big" data-testid="credits-used">
        <Trans
          t={t}
          i18nKey="meter.used"
          values={{ used: formatNumber(used), limit: formatNumber(limit) }}
          components={{ muted: <span className="muted" /> }}
        />
      </p>
      <meter
        className={`meter ${level}`}
        aria-label={t('meter.label')}
        min={0}
        max={limit || 1}
        value={Math.min(used, limit || 1)}
        data-level={level}
      />
      <p className="muted">{t('meter.resets', { date: resets })}</p>
      {level === 'full' ? (
        <p className="warn danger" role="alert">
          {t('meter.full', { date: resets })}
        </p>
      ) : level === 'high' ? (
        <p className="warn" role="status">
          {t('meter.high', { percent: formatNumber(Math.floor(ratio * 100)) })}
        </p>
      ) : null}
    </section>
  );
}
