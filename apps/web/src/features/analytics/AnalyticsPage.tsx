import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { Choices, Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { AiSection } from './AiSection.tsx';
import { Figure } from './Figure.tsx';
import { ServiceSection } from './ServiceSection.tsx';
import {
  analyticsPath,
  type Channels,
  channelName,
  type Gaps,
  type Overview,
  PERIODS,
  type Period,
  percent,
  periodLabel,
} from './types.ts';
import './analytics.css';
import { formatNumber } from '../../i18n/format.ts';
import { formatDateTime } from '../../shell/dates.ts';

// The chart library stays out of the dashboard's first download: fetched when this page shows.
const AnalyticsCharts = lazy(() => import('./AnalyticsCharts.tsx'));

const isPeriod = (p: string | null): p is Period => PERIODS.some((x) => x === p);

/**
 * The workspace's analytics (docs/analytics.md "The dashboard page"): conversations per day by
 * channel, credits per day, the rates, knowledge gaps, messages per channel, the AI's own figures
 * and the service report (ratings, SLA, response times), over 7, 30 or 90 days. The period is in
 * the address, so a view can be shared. Every member reads it, guests included.
 */
export function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const { ws = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const raw = params.get('period');
  const period: Period = isPeriod(raw) ? raw : '30d';
  const label = periodLabel(period);
  const opts = { placeholderData: keepPreviousData, refetchInterval: 60_000 } as const;
  const overview = useQuery({
    queryKey: ['analytics', ws, period],
    queryFn: () => get<Data<Overview>>(`${analyticsPath(ws)}?period=${period}`),
    ...opts,
  });
  const gaps = useQuery({
    queryKey: ['analytics-gaps', ws, period],
    queryFn: () => get<Data<Gaps>>(`${analyticsPath(ws)}/knowledge-gaps?period=${period}&limit=20`),
    ...opts,
  });
  const channels = useQuery({
    queryKey: ['analytics-channels', ws, period],
    queryFn: () => get<Data<Channels>>(`/api/analytics/channels?workspaceId=${ws}&period=${period}`),
    ...opts,
  });
  const o = overview.data?.data;
  return (
    <section className="analytics">
      <div className="row">
        <h1>{t('title')}</h1>
        <fieldset className="tabs analytics-periods">
          <legend className="sr-only">{t('period')}</legend>
          <Choices
            name="period"
            value={period}
            options={PERIODS.map((p) => ({ value: p, label: periodLabel(p) }))}
            onChange={(p) =>
              setParams(
                (old) => {
                  const next = new URLSearchParams(old);
                  next.set('period', p);
                  return next;
                },
                { replace: true },
              )
            }
          />
        </fieldset>
      </div>
      <p className="muted">{t('intro', { period: label })}</p>
      {overview.isPending && <Loading />}
      <ErrorText error={overview.error} />
      {o && (
        <>
          <dl className="analytics-figures">
            <Figure term={t('overview.conversations')} value={formatNumber(o.totals.conversations)} />
            <Figure term={t('overview.credits')} value={formatNumber(o.totals.credits)} />
            <Figure
              term={t('overview.handoffRate')}
              value={percent(o.handoff.rate)}
              hint={t('overview.handoffHint', { count: o.handoff.conversations })}
            />
            <Figure
              term={t('overview.resolved')}
              value={percent(o.resolvedWithoutPerson.rate)}
              hint={t('overview.resolvedHint', { count: o.resolvedWithoutPerson.conversations })}
            />
            <Figure
              term={t('overview.positive')}
              value={percent(o.feedback.positiveRate)}
              hint={t('overview.positiveHint', { up: o.feedback.positive, down: o.feedback.negative })}
            />
            <Figure
              term={t('overview.rated')}
              value={percent(o.feedback.responseRate)}
              hint={t('overview.ratedHint', { count: o.feedback.total })}
            />
          </dl>
          <Suspense fallback={<Loading label={t('loadingCharts')} />}>
            <AnalyticsCharts data={o} label={label} />
          </Suspense>
        </>
      )}
      <div className="analytics-tables">
        <KnowledgeGaps query={gaps} />
        <ChannelTable query={channels} />
      </div>
      <AiSection ws={ws} period={period} label={label} />
      <ServiceSection ws={ws} period={period} label={label} />
    </section>
  );
}

type Query<T> = { data?: Data<T>; error: unknown; isPending: boolean };

function KnowledgeGaps({ query }: { query: Query<Gaps> }) {
  const { t } = useTranslation('analytics');
  const g = query.data?.data;
  return (
    <section className="card" aria-labelledby="gaps-title">
      <h2 id="gaps-title">{t('gaps.title')}</h2>
      <p className="muted analytics-hint">
        {t('gaps.hint')}
        {g
          ? ` ${t('gaps.share', { replies: g.replies, aiReplies: g.aiReplies, rate: percent(g.rate) })}`
          : ''}
      </p>
      {query.isPending && <Loading />}
      <ErrorText error={query.error} />
      {g && g.gaps.length === 0 && <Empty title={t('gaps.empty')} />}
      {g && g.gaps.length > 0 && (
        <table className="analytics-table">
          <thead>
            <tr>
              <th scope="col">{t('gaps.question')}</th>
              <th scope="col" className="num">
                {t('gaps.timesAsked')}
              </th>
              <th scope="col">{t('gaps.lastAsked')}</th>
            </tr>
          </thead>
          <tbody>
            {g.gaps.map((x) => (
              <tr key={x.question}>
                <td>{x.asked}</td>
                <td className="num">{formatNumber(x.count)}</td>
                <td>
                  <time dateTime={x.lastAskedAt}>{formatDateTime(x.lastAskedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ChannelTable({ query }: { query: Query<Channels> }) {
  const { t } = useTranslation('analytics');
  const c = query.data?.data;
  return (
    <section className="card" aria-labelledby="channels-title">
      <h2 id="channels-title">{t('byChannel.title')}</h2>
      {query.isPending && <Loading />}
      <ErrorText error={query.error} />
      {c && (
        <table className="analytics-table">
          <thead>
            <tr>
              <th scope="col">{t('byChannel.channel')}</th>
              <th scope="col" className="num">
                {t('byChannel.conversations')}
              </th>
              <th scope="col" className="num">
                {t('byChannel.received')}
              </th>
              <th scope="col" className="num">
                {t('byChannel.sent')}
              </th>
            </tr>
          </thead>
          <tbody>
            {c.channels.map((x) => (
              <tr key={x.channel}>
                <th scope="row">{channelName(x.channel)}</th>
                <td className="num">{formatNumber(x.conversations)}</td>
                <td className="num">{formatNumber(x.inbound)}</td>
                <td className="num">{formatNumber(x.outbound)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted analytics-hint">{t('byChannel.hint')}</p>
    </section>
  );
}
