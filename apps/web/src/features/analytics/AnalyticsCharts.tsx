import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { channelName, dayLabel, type Overview } from './types.ts';

/**
 * Colours per channel from the theme's variables (styles.css), readable in both themes (the
 * legend's text takes them too); a channel added later takes one of the rest.
 */
const COLOURS: Record<string, string> = {
  widget: 'var(--accent)',
  chat: 'var(--ok)',
  sms: 'var(--warn-text)',
};
const colourOf = (c: string, i: number) =>
  COLOURS[c] ?? ['var(--error)', 'var(--muted)', 'var(--text)'][i % 3];

const axis = { stroke: 'var(--muted)', tick: { fill: 'var(--muted)', fontSize: 12 } };
const tooltip = {
  labelFormatter: (d: unknown) => dayLabel(String(d)),
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
};

/**
 * The page's two charts (recharts), loaded on demand. The numbers are in the figures above and in
 * the tooltips; for screen readers each chart is named and summed up in words.
 */
export default function AnalyticsCharts({ data, label }: { data: Overview; label: string }) {
  const { t } = useTranslation('analytics');
  const rows = data.days.map((d) => ({ date: d.date, credits: d.credits, ...d.conversations }));
  const busiest = data.days.reduce(
    (best, d) => {
      const n = Object.values(d.conversations).reduce((a, b) => a + b, 0);
      return n > best.n ? { n, date: d.date } : best;
    },
    { n: 0, date: '' },
  );
  return (
    <div className="analytics-charts">
      <figure className="card analytics-chart" aria-label={t('charts.conversationsLabel')}>
        <h2>{t('charts.conversations')}</h2>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayLabel} minTickGap={16} {...axis} />
            <YAxis allowDecimals={false} width={48} {...axis} />
            <Tooltip {...tooltip} cursor={{ fill: 'var(--border)', opacity: 0.3 }} />
            <Legend wrapperStyle={{ color: 'var(--text)' }} />
            {data.channels.map((c, i) => (
              <Bar
                key={c}
                dataKey={c}
                name={channelName(c)}
                stackId="c"
                fill={colourOf(c, i)}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {busiest.n === 0
            ? t('charts.conversationsNone', { period: label })
            : t('charts.conversationsSummary', {
                period: label,
                day: dayLabel(busiest.date),
                count: busiest.n,
              })}
        </figcaption>
      </figure>
      <figure className="card analytics-chart" aria-label={t('charts.credits')}>
        <h2>{t('charts.credits')}</h2>
        <ResponsiveContainer width="100%" height={240}>
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayLabel} minTickGap={16} {...axis} />
            <YAxis allowDecimals={false} width={48} {...axis} />
            <Tooltip {...tooltip} />
            <Line
              type="linear"
              dataKey="credits"
              name={t('charts.creditsName')}
              stroke="var(--accent)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {t('charts.creditsSummary', { count: data.totals.credits, period: label })}
        </figcaption>
      </figure>
    </div>
  );
}
