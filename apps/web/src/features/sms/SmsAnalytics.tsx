import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, get } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { Choices, ErrorText, Loading } from '../../shell/ui.tsx';
import { PERIODS, periodLabel } from '../analytics/types.ts';
import { formBPath, type Period, type SmsAnalytics } from './types.ts';

// The chart library stays out of the dashboard's first download: fetched when this card shows.
const SmsChart = lazy(() => import('./SmsChart.tsx'));

/** Message volume of the number over 7, 30 or 90 days (Form B analytics, whole UTC days). */
export function SmsAnalyticsCard({ ws, id }: { ws: string; id: string }) {
  const { t } = useTranslation(['sms', 'analytics']);
  const [period, setPeriod] = useState<Period>('30d');
  const stats = useQuery({
    queryKey: ['sms-analytics', id, period],
    queryFn: () => get<Data<SmsAnalytics>>(`${formBPath(ws, id)}/analytics?period=${period}`),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const s = stats.data?.data;
  const label = periodLabel(period);
  return (
    <section className="card stack" aria-labelledby="sms-analytics-title">
      <div className="row">
        <h2 id="sms-analytics-title">{t('analytics.title')}</h2>
        <fieldset className="tabs sms-periods">
          <legend className="sr-only">{t('analytics:period')}</legend>
          <Choices
            name="sms-period"
            value={period}
            options={PERIODS.map((p) => ({ value: p, label: periodLabel(p) }))}
            onChange={setPeriod}
          />
        </fieldset>
      </div>
      {stats.isPending && <Loading />}
      <ErrorText error={stats.error} />
      {s && (
        <>
          <dl className="sms-totals">
            <Total term={t('analytics.totals.messages')} value={s.totalMessages} />
            <Total term={t('analytics.totals.received')} value={s.inbound} />
            <Total term={t('analytics.totals.sent')} value={s.outbound} />
            <Total term={t('analytics.totals.customers')} value={s.uniqueContacts} />
            <Total term={t('analytics.totals.activeSessions')} value={s.activeSessions} />
          </dl>
          <Suspense fallback={<Loading label={t('analytics.loadingChart')} />}>
            <SmsChart series={s.series} period={label} />
          </Suspense>
          <p className="muted sms-hint">{t('analytics.hint')}</p>
        </>
      )}
    </section>
  );
}

const Total = ({ term, value }: { term: string; value: number }) => (
  <div>
    <dt>{term}</dt>
    <dd>{formatNumber(value)}</dd>
  </div>
);
