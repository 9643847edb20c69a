import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
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
} from './types.ts';
import './analytics.css';
import { formatDateTime } from '../../shell/dates.ts';

// The chart library stays out of the dashboard's first download: fetched when this page shows.
const AnalyticsCharts = lazy(() => import('./AnalyticsCharts.tsx'));

const isPeriod = (p: string | null): p is Period => PERIODS.some((x) => x.value === p);

/**
 * The workspace's analytics (docs/analytics.md "The dashboard page"): conversations per day by
 * channel, credits per day, the rates, knowledge gaps, messages per channel, the AI's own figures
 * and the service report (ratings, SLA, response times), over 7, 30 or 90 days. The period is in
 * the address, so a view can be shared. Every member reads it, guests included.
 */
export function AnalyticsPage() {
  const { ws = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const raw = params.get('period');
  const period: Period = isPeriod(raw) ? raw : '30d';
  const label = PERIODS.find((p) => p.value === period)?.label ?? period;
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
        <h1>Analytics</h1>
        <fieldset className="tabs analytics-periods">
          <legend className="sr-only">Period</legend>
          {PERIODS.map((p) => (
            <label key={p.value} className="check">
              <input
                type="radio"
                name="period"
                checked={period === p.value}
                onChange={() =>
                  setParams(
                    (old) => {
                      const next = new URLSearchParams(old);
                      next.set('period', p.value);
                      return next;
                    },
                    { replace: true },
                  )
                }
              />
              {p.label}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="muted">
        The last {label}, in whole UTC days up to now. Conversations count on the day they started.
      </p>
      {overview.isPending && <Loading />}
      <ErrorText error={overview.error} />
      {o && (
        <>
          <dl className="analytics-figures">
            <Figure term="Conversations" value={o.totals.conversations.toLocaleString('en')} />
            <Figure term="Credits used" value={o.totals.credits.toLocaleString('en')} />
            <Figure
              term="Handoff rate"
              value={percent(o.handoff.rate)}
              hint={`${o.handoff.conversations} handed to a person`}
            />
            <Figure
              term="Resolved without a person"
              value={percent(o.resolvedWithoutPerson.rate)}
              hint={`${o.resolvedWithoutPerson.conversations} answered by the AI alone`}
            />
            <Figure
              term="Positive feedback"
              value={percent(o.feedback.positiveRate)}
              hint={`${o.feedback.positive} up, ${o.feedback.negative} down`}
            />
            <Figure
              term="Answers rated"
              value={percent(o.feedback.responseRate)}
              hint={`${o.feedback.total} ratings`}
            />
          </dl>
          <Suspense fallback={<Loading label="Loading the charts…" />}>
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
  const g = query.data?.data;
  return (
    <section className="card" aria-labelledby="gaps-title">
      <h2 id="gaps-title">Knowledge gaps</h2>
      <p className="muted analytics-hint">
        Questions answered without citing any of the assistant’s knowledge, most frequent first.
        {g ? ` ${g.replies} of ${g.aiReplies} AI replies (${percent(g.rate)}).` : ''}
      </p>
      {query.isPending && <Loading />}
      <ErrorText error={query.error} />
      {g && g.gaps.length === 0 && <Empty title="No knowledge gaps in this period" />}
      {g && g.gaps.length > 0 && (
        <table className="analytics-table">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col" className="num">
                Times asked
              </th>
              <th scope="col">Last asked</th>
            </tr>
          </thead>
          <tbody>
            {g.gaps.map((x) => (
              <tr key={x.question}>
                <td>{x.asked}</td>
                <td className="num">{x.count}</td>
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
  const c = query.data?.data;
  return (
    <section className="card" aria-labelledby="channels-title">
      <h2 id="channels-title">Messages by channel</h2>
      {query.isPending && <Loading />}
      <ErrorText error={query.error} />
      {c && (
        <table className="analytics-table">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col" className="num">
                Conversations
              </th>
              <th scope="col" className="num">
                Received
              </th>
              <th scope="col" className="num">
                Sent
              </th>
            </tr>
          </thead>
          <tbody>
            {c.channels.map((x) => (
              <tr key={x.channel}>
                <th scope="row">{channelName(x.channel)}</th>
                <td className="num">{x.conversations.toLocaleString('en')}</td>
                <td className="num">{x.inbound.toLocaleString('en')}</td>
                <td className="num">{x.outbound.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted analytics-hint">Received: from customers. Sent: the AI’s and people’s replies.</p>
    </section>
  );
}
