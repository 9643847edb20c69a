import { HANDOFF_REASONS } from '@parley/contract/ai-analytics';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { useAssistants } from '../inbox/directory.ts';
import { Figure } from './Figure.tsx';
import { type AiAnalytics, analyticsPath, type Period, percent } from './types.ts';

// Loaded with the page's other charts, on demand (the same chart library).
const AiCharts = lazy(() => import('./AiCharts.tsx'));

/**
 * The AI's own figures (docs/analytics.md "AI analytics"): how many conversations it took part in,
 * how many it resolved (verified 7 days after they ended; pending until then), handoffs by reason,
 * and per day; for every assistant or the one picked (`?assistant=` in the address).
 */
export function AiSection({ ws, period, label }: { ws: string; period: Period; label: string }) {
  const { t } = useTranslation('analytics');
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
        <h2 id="ai-title">{t('ai.title')}</h2>
        <label>
          {t('ai.assistant')}{' '}
          <select value={assistant} onChange={(e) => pick(e.target.value)}>
            <option value="">{t('ai.allAssistants')}</option>
            {assistants.data?.data.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted analytics-hint">{t('ai.hint')}</p>
      {ai.isPending && <Loading />}
      <ErrorText error={ai.error} />
      {a && (
        <>
          <dl className="analytics-figures">
            <Figure
              term={t('ai.involvement')}
              value={percent(a.conversations > 0 ? a.involved / a.conversations : null)}
              hint={t('ai.involvementHint', { involved: a.involved, count: a.conversations })}
            />
            <Figure
              term={t('ai.resolutionRate')}
              value={percent(a.aiResolutionRate)}
              hint={t('ai.resolutionRateHint', { count: a.resolvedByAi })}
            />
            <Figure
              term={t('ai.pending')}
              value={formatNumber(a.resolvedByAiPending)}
              hint={t('ai.pendingHint')}
            />
            <Figure term={t('ai.handedOff')} value={formatNumber(handedOff)} hint={t('ai.handedOffHint')} />
          </dl>
          <div className="analytics-tables">
            <table className="analytics-table">
              <caption className="analytics-caption">{t('ai.reasonsCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ai.reason')}</th>
                  <th scope="col" className="num">
                    {t('ai.conversations')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {HANDOFF_REASONS.map((r) => (
                  <tr key={r}>
                    <th scope="row">{t(`ai.reasons.${r}`)}</th>
                    <td className="num">{formatNumber(a.handoffs[r])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Suspense fallback={<Loading label={t('loadingCharts')} />}>
              <AiCharts data={a} label={label} />
            </Suspense>
          </div>
        </>
      )}
    </section>
  );
}
