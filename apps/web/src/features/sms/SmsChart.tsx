import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay as day } from '../../shell/dates.ts';
import type { SmsAnalytics } from './types.ts';

/**
 * Messages received and sent per UTC day, stacked (recharts). The numbers are in the totals above
 * and in the tooltips; for screen readers the figure is named and summed up in words.
 */
export default function SmsChart({ series, period }: { series: SmsAnalytics['series']; period: string }) {
  const { t } = useTranslation('sms');
  const busiest = series.reduce(
    (best, d) => (d.inbound + d.outbound > best.n ? { n: d.inbound + d.outbound, date: d.date } : best),
    { n: 0, date: '' },
  );
  const summary =
    busiest.n === 0
      ? t('analytics.none', { period })
      : t('analytics.summary', { period, day: day(busiest.date), count: busiest.n });
  return (
    <figure className="sms-chart" aria-label={t('analytics.chart')}>
      <div className="sms-chart-area">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={day}
              stroke="var(--muted)"
              tick={{ fill: 'var(--muted)', fontSize: 12 }}
              minTickGap={16}
            />
            <YAxis
              allowDecimals={false}
              stroke="var(--muted)"
              tick={{ fill: 'var(--muted)', fontSize: 12 }}
              width={48}
            />
            <Tooltip
              labelFormatter={(d) => day(String(d))}
              contentStyle={{
                background: 'var(--surface)',
                border: '1px solid var(--border)',
                color: 'var(--text)',
              }}
              cursor={{ fill: 'var(--border)', opacity: 0.3 }}
            />
            <Legend wrapperStyle={{ color: 'var(--text)' }} />
            <Bar
              dataKey="inbound"
              name={t('analytics.totals.received')}
              stackId="m"
              fill="var(--accent)"
              isAnimationActive={false}
            />
            <Bar
              dataKey="outbound"
              name={t('analytics.totals.sent')}
              stackId="m"
              fill="var(--ok)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted sms-hint">{summary}</figcaption>
    </figure>
  );
}
