import { HANDOFF_REASONS, type HandoffReason } from '@parley/contract/ai-analytics';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { useAssistants } from '../inbox/directory.ts';
import { Figure } from './Figure.tsx';
import { type AiAnalytics, analyticsPath, type Period, percent } from './types.ts';

// Loaded with the page's other charts, on demand (the same chart library).
const AiCharts = lazy(() => import('./AiCharts.tsx'));

export const REASON_NAMES: Record<HandoffReason, string> = {
  customer_asked: 'The customer asked for a person',
  rule: 'A guidance rule',
  low_confidence: 'Low confidence',
  declined: 'Asked after the AI could not answer',
  agent: 'A person took over',
};

/**
 * The AI's own figures (docs/analytics.md "AI analytics"): how many conversations it took part in,
 * how many it resolved (verified 7 days after they ended; pending until then), handoffs by reason,
 * and per day; for every assistant or the one picked (`?assistant=` in the address).
 */
export function AiSection({ ws, period, label }: { ws: string; period: Period; label: string }) {
  const [params, setParams] = useSearchParams();
  const assistant = params.get('assistant') ?? '';
  const assistants = useAssistants(ws);
  const ai = useQuery({
    queryKey: ['analytics-ai', ws, period, assistant],
    queryFn: () =>
      get<Data<AiAnalytics>>(
        `${analyticsPath(ws)}/ai?period=${period}${assistant ? `&assistantId=${encodeURIComponent(assistant)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const pick = (id: string) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        if (id) next.set('assistant', id);
        else next.delete('assistant');
        return next;
      },
      { replace: true },
    );
  const a = ai.data?.data;
  const handedOff = a ? HANDOFF_REASONS.reduce((n, r) => n + a.handoffs[r], 0) : 0;
  return (
    <section className="card analytics-ai" aria-labelledby="ai-title">
      <div className="row">
        <h2 id="ai-title">AI</h2>
        <label>
          Assistant{' '}
          <select value={assistant} onChange={(e) => pick(e.target.value)}>
            <option value="">All assistants</option>
            {assistants.data?.data.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted analytics-hint">
        A conversation is resolved by the AI when it ended after an answer, no person was involved and the
        customer did not come back to it; that is known 7 days after it ended.
      </p>
      {ai.isPending && <Loading />}
      <ErrorText error={ai.error} />
      {a && (
        <>
          <dl className="analytics-figures">
            <Figure
              term="AI involvement"
              value={percent(a.conversations > 0 ? a.involved / a.conversations : null)}
              hint={`${a.involved} of ${a.conversations} conversations had an AI reply`}
            />
            <Figure
              term="AI resolution rate"
              value={percent(a.aiResolutionRate)}
              hint={`${a.resolvedByAi} resolved by the AI, verified`}
            />
            <Figure
              term="Pending resolution"
              value={a.resolvedByAiPending.toLocaleString('en')}
              hint="resolved so far, not yet 7 days after ending"
            />
            <Figure term="Handed to a person" value={handedOff.toLocaleString('en')} hint="conversations" />
          </dl>
          <div className="analytics-tables">
            <table className="analytics-table">
              <caption className="analytics-caption">Handoffs by reason</caption>
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col" className="num">
                    Conversations
                  </th>
                </tr>
              </thead>
              <tbody>
                {HANDOFF_REASONS.map((r) => (
                  <tr key={r}>
                    <th scope="row">{REASON_NAMES[r]}</th>
                    <td className="num">{a.handoffs[r].toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Suspense fallback={<Loading label="Loading the charts…" />}>
              <AiCharts data={a} label={label} />
            </Suspense>
          </div>
        </>
      )}
    </section>
  );
}
