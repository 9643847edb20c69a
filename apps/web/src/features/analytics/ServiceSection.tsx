import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { type Data, get } from '../../api.ts';
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

const DOWNLOADS: Array<{ figure: ServiceFigure; text: string }> = [
  { figure: 'csat', text: 'Rated conversations' },
  { figure: 'sla_met', text: 'SLA met' },
  { figure: 'sla_breached', text: 'SLA breached' },
  { figure: 'first_response', text: 'First responses' },
  { figure: 'resolution', text: 'Resolutions' },
];

type Row = { key: string; name: string; responses: number; average: number | null };

/** Ratings by one grouping (a person, an assistant), most rated first. */
function RatingTable({ caption, head, rows }: { caption: string; head: string; rows: Row[] }) {
  return (
    <table className="analytics-table">
      <caption className="analytics-caption">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          <th scope="col" className="num">
            Ratings
          </th>
          <th scope="col" className="num">
            Mean rating
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={3} className="muted">
              No ratings in this period
            </td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.name}</th>
            <td className="num">{r.responses.toLocaleString('en')}</td>
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
      <h2 id="service-title">Service</h2>
      <p className="muted analytics-hint">
        Ratings count on the day the customer gave them; SLA clocks that started in the period once they are
        settled (closed, or already breached); times from the handoff to a person.
      </p>
      {service.isPending && <Loading />}
      <ErrorText error={service.error} />
      {s && (
        <>
          <dl className="analytics-figures">
            <Figure
              term="Customer rating"
              value={ratingWords(s.csat.average)}
              hint={`${s.csat.responses.toLocaleString('en')} ratings`}
            />
            <Figure term="Satisfied" value={percent(s.csat.satisfied)} hint="rated 4 or 5" />
            <Figure
              term="First response (median)"
              value={spanWords(s.firstResponseMedianSeconds)}
              hint="from the handoff to a person’s first reply"
            />
            <Figure
              term="Resolution (median)"
              value={spanWords(s.resolutionMedianSeconds)}
              hint="from the handoff to closing"
            />
          </dl>
          <div className="analytics-tables analytics-service-tables">
            <RatingTable
              caption="Ratings by person"
              head="Person"
              rows={s.csat.byAgent.map((a) => ({ ...a, key: a.userId ?? '' }))}
            />
            <RatingTable
              caption="Ratings by assistant"
              head="Assistant"
              rows={s.csat.byAssistant.map((a) => ({ ...a, key: a.assistantId }))}
            />
            <table className="analytics-table">
              <caption className="analytics-caption">SLA policies</caption>
              <thead>
                <tr>
                  <th scope="col">Policy</th>
                  <th scope="col" className="num">
                    Met
                  </th>
                  <th scope="col" className="num">
                    Breached
                  </th>
                  <th scope="col" className="num">
                    Met rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.sla.policies.length === 0 && (
                  <tr>
                    <td colSpan={4} className="muted">
                      No SLA policies
                    </td>
                  </tr>
                )}
                {s.sla.policies.map((p) => (
                  <tr key={p.policyId}>
                    <th scope="row">{p.name}</th>
                    <td className="num">{p.met.toLocaleString('en')}</td>
                    <td className="num">{p.breached.toLocaleString('en')}</td>
                    <td className="num">{percent(p.metRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Suspense fallback={<Loading label="Loading the charts…" />}>
            <ServiceCharts data={s} label={label} />
          </Suspense>
          <nav aria-label="Service CSV downloads">
            <p className="analytics-hint">Download the conversations behind each figure (CSV):</p>
            <ul className="analytics-downloads">
              {DOWNLOADS.map((d) => (
                <li key={d.figure}>
                  <a href={`${base}/conversations.csv?period=${period}&figure=${d.figure}`} download>
                    {d.text}
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
