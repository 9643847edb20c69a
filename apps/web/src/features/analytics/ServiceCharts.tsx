import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { dayLabel, type ServiceAnalytics } from './types.ts';

const axis = { stroke: 'var(--muted)', tick: { fill: 'var(--muted)', fontSize: 12 } };
const tooltip = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
};

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * The service section's chart (recharts, like the page's others): per day, the ratings given and
 * the SLA breaches as bars, the day's mean rating as a line on its own 1-5 axis; summed up in words.
 */
export default function ServiceCharts({ data, label }: { data: ServiceAnalytics; label: string }) {
  const breaches = data.byDay.reduce((n, d) => n + d.breaches, 0);
  const best = data.byDay.reduce<ServiceAnalytics['byDay'][number] | null>(
    (top, d) => (d.responses > (top?.responses ?? 0) ? d : top),
    null,
  );
  return (
    <figure className="card analytics-chart" aria-label="Ratings and breaches per day">
      <h3>Ratings and breaches per day</h3>
      <ResponsiveContainer width="100%" height={220}>
        <ComposedChart data={data.byDay} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="date" tickFormatter={dayLabel} minTickGap={16} {...axis} />
          <YAxis yAxisId="count" allowDecimals={false} width={48} {...axis} />
          <YAxis
            yAxisId="rating"
            orientation="right"
            domain={[1, 5]}
            ticks={[1, 2, 3, 4, 5]}
            width={32}
            {...axis}
          />
          <Tooltip {...tooltip} labelFormatter={(d: unknown) => dayLabel(String(d))} />
          <Legend wrapperStyle={{ color: 'var(--text)' }} />
          <Bar
            yAxisId="count"
            dataKey="responses"
            name="Ratings"
            fill="var(--accent)"
            isAnimationActive={false}
          />
          <Bar
            yAxisId="count"
            dataKey="breaches"
            name="SLA breaches"
            fill="var(--warn-text)"
            isAnimationActive={false}
          />
          <Line
            yAxisId="rating"
            dataKey="average"
            name="Mean rating"
            stroke="var(--ok)"
            connectNulls
            dot
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
      <figcaption className="muted">
        {`Over the last ${label}: ${count(data.csat.responses, 'rating')} and ${count(breaches, 'SLA breach', 'SLA breaches')}${
          best ? `; the most ratings on ${dayLabel(best.date)} (${best.responses})` : ''
        }.`}
      </figcaption>
    </figure>
  );
}
