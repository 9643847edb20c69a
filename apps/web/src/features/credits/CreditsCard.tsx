import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { type Billing, type Data, get } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { formatDate } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';

/** Credits used this period with the 80% and 100% warnings (docs/dashboard.md; docs/credits.md). */
export function CreditsCard({ ws }: { ws: string }) {
  const { t } = useTranslation('credits');
  const billing = useQuery({
    queryKey: ['billing', ws],
    queryFn: () => get<Data<Billing>>(`/api/workspaces/${ws}/billing`),
  });
  return (
    <section className="card" aria-labelledby="credits-title">
      <h2 id="credits-title">{t('title')}</h2>
      {billing.isPending && <Loading />}
      <ErrorText error={billing.error} />
      {billing.data && <Credits billing={billing.data.data} />}
    </section>
  );
}

function Credits({ billing }: { billing: Billing }) {
  const { t } = useTranslation('credits');
  const { used, limit, resetsAt } = billing.credits;
  const ratio = limit > 0 ? used / limit : 1;
  const resets = formatDate(resetsAt);
  return (
    <>
      <p className="big">
        <Trans
          t={t}
          i18nKey="used"
          values={{ used: formatNumber(used), limit: formatNumber(limit) }}
          components={{ muted: <span className="muted" /> }}
        />
      </p>
      <progress max={limit || 1} value={Math.min(used, limit || 1)} aria-label={t('progress')} />
      <p className="muted">{t('plan', { plan: billing.plan, date: resets })}</p>
      {ratio >= 1 ? (
        <p className="warn danger" role="alert">
          {t('exhausted', { date: resets })}
        </p>
      ) : ratio >= 0.8 ? (
        <p className="warn" role="status">
          {t('nearly', { percent: formatNumber(Math.floor(ratio * 100)) })}
        </p>
      ) : null}
    </>
  );
}
