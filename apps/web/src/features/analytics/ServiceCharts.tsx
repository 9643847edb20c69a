import { useTranslation } from 'react-i18next';
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

/**
 * The service section's chart (recharts, like the page's others): per day, the ratings given and
 * the SLA breaches as bars, the day's mean rating as a line on its own 1-5 axis; summed up in words.
 */
export default function ServiceCharts({ data, label }: { data: ServiceAnalytics; label: string }) {
  const { t } = useTranslation('analytics');
  const breaches = data.byDay.reduce((n, d) => n + d.breaches, 0);
  const best = data.byDay.reduce<ServiceAnalytics['byDay'][number] | null>(
    (top, d) => (d.responses > (top?.responses ?? 0) ? d : top),
    null,
  );
  return (
    <figure className="card analytics-chart" aria-label={t('service.chart')}>
      <h3>{t('service.chart')}</h3>
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
            name={t('service.ratings')}
            fill="var(--accent)"
            isAnimationActive={false}
          />
          <Bar
            yAxisId="count"
            dataKey="breaches"
            name={t('service.breaches')}
            fill="var(--warn-text)"
            isAnimationActive={false}
          />
          <Line
            yAxisId="rating"
            dataKey="average"
            name={t('service.meanRating')}
            stroke="var(--ok)"
            connectNulls
            dot
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
      <figcaption className="muted">
        {t(best ? 'service.chartSummaryBusiest' : 'service.chartSummary', {
          period: label,
          ratings: t('service.ratingsCount', { count: data.csat.responses }),
          breaches: t('service.breachesCount', { count: breaches }),
          day: best ? dayLabel(best.date) : '',
          count: best?.responses ?? 0,
        })}
      </figcaption>
    </figure>
  );
}
