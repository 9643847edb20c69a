import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type AiAnalytics, dayLabel } from './types.ts';

const axis = { stroke: 'var(--muted)', tick: { fill: 'var(--muted)', fontSize: 12 } };
const tooltip = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
};

const OUTCOMES = [
  { key: 'answered', name: 'Answered' },
  { key: 'curated', name: 'Curated answer' },
  { key: 'declined', name: 'Could not answer' },
  { key: 'handoff', name: 'Handed over' },
] as const;

/**
 * The AI section's charts (recharts, like the page's others): per day, the conversations the AI
 * took part in, resolved and handed over; and its replies by outcome. Each is summed up in words.
 */
export default function AiCharts({ data, label }: { data: AiAnalytics; label: string }) {
  const outcomes = OUTCOMES.map((o) => ({ name: o.name, replies: data.outcomes[o.key] }));
  const replies = outcomes.reduce((n, o) => n + o.replies, 0);
  const handoffs = data.byDay.reduce((n, d) => n + d.handoffs, 0);
  return (
    <>
      <figure className="card analytics-chart" aria-label="The AI per day">
        <h3>The AI per day</h3>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data.byDay} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayLabel} minTickGap={16} {...axis} />
            <YAxis allowDecimals={false} width={48} {...axis} />
            <Tooltip {...tooltip} labelFormatter={(d: unknown) => dayLabel(String(d))} />
            <Legend wrapperStyle={{ color: 'var(--text)' }} />
            <Bar dataKey="involved" name="AI involved" fill="var(--accent)" isAnimationActive={false} />
            <Bar
              dataKey="resolvedByAi"
              name="Resolved by the AI"
              fill="var(--ok)"
              isAnimationActive={false}
            />
            <Bar
              dataKey="handoffs"
              name="Handed to a person"
              fill="var(--warn-text)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {`Over the last ${label}: ${data.involved} conversations with the AI, ${data.resolvedByAi} resolved by it, ${handoffs} handed to a person, by the day they started.`}
        </figcaption>
      </figure>
      <figure className="card analytics-chart" aria-label="AI replies by outcome">
        <h3>AI replies by outcome</h3>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={outcomes} layout="vertical" margin={{ top: 8, right: 8, bottom: 0, left: 48 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
            <XAxis type="number" allowDecimals={false} {...axis} />
            <YAxis type="category" dataKey="name" width={96} {...axis} />
            <Tooltip {...tooltip} cursor={{ fill: 'var(--border)', opacity: 0.3 }} />
            <Bar dataKey="replies" name="Replies" fill="var(--accent)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="muted">
          {replies === 0
            ? `No AI replies in the last ${label}.`
            : `${replies} AI replies over the last ${label}: ${outcomes.map((o) => `${o.replies} ${o.name.toLowerCase()}`).join(', ')}.`}
        </figcaption>
      </figure>
    </>
  );
}
