import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, get } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { Figure } from './Figure.tsx';
import {
  analyticsPath,
  type Period,
  percent,
  ratingWords,
  type ServiceAnalytics,
  type ServiceFigure,
  spanWords,
} from './types.ts';

// Loaded with the page's other charts, on demand (the same chart library).
const ServiceCharts = lazy(() => import('./ServiceCharts.tsx'));

const DOWNLOADS: ServiceFigure[] = ['csat', 'sla_met', 'sla_breached', 'first_response', 'resolution'];

type Row = { key: string; name: string; responses: number; average: number | null };

/** Ratings by one grouping (a person, an assistant), most rated first. */
function RatingTable({ caption, head, rows }: { caption: string; head: string; rows: Row[] }) {
  const { t } = useTranslation('analytics');
  return (
    <table className="analytics-table">
      <caption className="analytics-caption">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          <th scope="col" className="num">
            {t('service.ratings')}
          </th>
          <th scope="col" className="num">
            {t('service.meanRating')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={3} className="muted">
              {t('service.noRatings')}
            </td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.name}</th>
            <td className="num">{formatNumber(r.responses)}</td>
            <td className="num">{ratingWords(r.average)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Service (docs/analytics.md "Service"): the customers' ratings, overall, by person and by
 * assistant; each SLA policy's met rate; the median times to a person's first reply and to
 * closing; ratings and breaches per day; and a CSV of the conversations behind each figure.
 */
export function ServiceSection({ ws, period, label }: { ws: string; period: Period; label: string }) {
  const { t } = useTranslation('analytics');
  const base = `${analyticsPath(ws)}/service`;
  const service = useQuery({
    queryKey: ['analytics-service', ws, period],
    queryFn: () => get<Data<ServiceAnalytics>>(`${base}?period=${period}`),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const s = service.data?.data;
  return (
    <section className="card analytics-ai" aria-labelledby="service-title">
      <h2 id="service-title">{t('service.title')}</h2>
      <p className="muted analytics-hint">{t('service.hint')}</p>
      {service.isPending && <Loading />}
      <ErrorText error={service.error} />
      {s && (
        <>
          <dl className="analytics-figures">
            <Figure
              term={t('service.rating')}
              value={ratingWords(s.csat.average)}
              hint={t('service.ratingHint', { count: s.csat.responses })}
            />
            <Figure
              term={t('service.satisfied')}
              value={percent(s.csat.satisfied)}
              hint={t('service.satisfiedHint')}
            />
            <Figure
              term={t('service.firstResponse')}
              value={spanWords(s.firstResponseMedianSeconds)}
              hint={t('service.firstResponseHint')}
            />
            <Figure
              term={t('service.resolution')}
              value={spanWords(s.resolutionMedianSeconds)}
              hint={t('service.resolutionHint')}
            />
          </dl>
          <div className="analytics-tables analytics-service-tables">
            <RatingTable
              caption={t('service.byPerson')}
              head={t('service.person')}
              rows={s.csat.byAgent.map((a) => ({ ...a, key: a.userId ?? '' }))}
            />
            <RatingTable
              caption={t('service.byAssistant')}
              head={t('service.assistant')}
              rows={s.csat.byAssistant.map((a) => ({ ...a, key: a.assistantId }))}
            />
            <table className="analytics-table">
              <caption className="analytics-caption">{t('service.policies')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('service.policy')}</th>
                  <th scope="col" className="num">
                    {t('service.met')}
                  </th>
                  <th scope="col" className="num">
                    {t('service.breached')}
                  </th>
                  <th scope="col" className="num">
                    {t('service.metRate')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.sla.policies.length === 0 && (
                  <tr>
                    <td colSpan={4} className="muted">
                      {t('service.noPolicies')}
                    </td>
                  </tr>
                )}
                {s.sla.policies.map((p) => (
                  <tr key={p.policyId}>
                    <th scope="row">{p.name}</th>
                    <td className="num">{formatNumber(p.met)}</td>
                    <td className="num">{formatNumber(p.breached)}</td>
                    <td className="num">{percent(p.metRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Suspense fallback={<Loading label={t('loadingCharts')} />}>
            <ServiceCharts data={s} label={label} />
          </Suspense>
          <nav aria-label={t('service.downloads')}>
            <p className="analytics-hint">{t('service.downloadsHint')}</p>
            <ul className="analytics-downloads">
              {DOWNLOADS.map((figure) => (
                <li key={figure}>
                  <a href={`${base}/conversations.csv?period=${period}&figure=${figure}`} download>
                    {t(`service.files.${figure}`)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </>
      )}
    </section>
  );
}
