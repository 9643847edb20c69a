import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type AiAnalytics, dayLabel } from './types.ts';

const axis = { stroke: 'var(--muted)', tick: { fill: 'var(--muted)', fontSize: 12 } };
const tooltip = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
};

const OUTCOMES = ['answered', 'curated', 'declined', 'handoff'] as const;

/**
 * The AI section's charts (recharts, like the page's others): per day, the conversations the AI
 * took part in, resolved and handed over; and its replies by outcome. Each is summed up in words.
 */
export default function AiCharts({ data, label }: { data: AiAnalytics; label: string }) {
  const { t, i18n } = useTranslation('analytics');
  const outcomes = OUTCOMES.map((o) => ({ name: t(`ai.outcomes.${o}`), replies: data.outcomes[o] }));
  const replies = outcomes.reduce((n, o) => n + o.replies, 0);
  const handoffs = data.byDay.reduce((n, d) => n + d.handoffs, 0);
  return (
    <>
      <figure className="card analytics-chart" aria-label={t('ai.perDay')}>
        <h3>{t('ai.perDay')}</h3>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data.byDay} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayLabel} minTickGap={16} {...axis} />
            <YAxis allowDecimals={false} width={48} {...axis} />
            <Tooltip {...tooltip} labelFormatter={(d: unknown) => dayLabel(String(d))} />
            <Legend wrapperStyle={{ color: 'var(--text)' }} />
            <Bar dataKey="involved" name={t('ai.involved')} fill="var(--accent)" isAnimationActive={false} />
            <Bar
              dataKey="resolvedByAi"
              name={t('ai.resolvedByAi')}
              fill="var(--ok)"
              isAnimationActive={false}
            />
            <Bar
              dataKey="handoffs"
              name={t('ai.handoffs')}
              fill="var(--warn-text)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {t('ai.perDaySummary', {
            period: label,
            involved: data.involved,
            resolved: data.resolvedByAi,
            handoffs,
          })}
        </figcaption>
      </figure>
      <figure className="card analytics-chart" aria-label={t('ai.outcomesTitle')}>
        <h3>{t('ai.outcomesTitle')}</h3>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={outcomes} layout="vertical" margin={{ top: 8, right: 8, bottom: 0, left: 48 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
            <XAxis type="number" allowDecimals={false} {...axis} />
            <YAxis type="category" dataKey="name" width={96} {...axis} />
            <Tooltip {...tooltip} cursor={{ fill: 'var(--border)', opacity: 0.3 }} />
            <Bar dataKey="replies" name={t('ai.replies')} fill="var(--accent)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {replies === 0
            ? t('ai.outcomesNone', { period: label })
            : t('ai.outcomesSummary', {
                count: replies,
                period: label,
                outcomes: outcomes
                  .map((o) =>
                    t('ai.outcomeItem', { count: o.replies, name: o.name.toLocaleLowerCase(i18n.language) }),
                  )
                  .join(', '),
              })}
        </figcaption>
      </figure>
    </>
  );
}
