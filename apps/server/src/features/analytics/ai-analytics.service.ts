import { type AiAnalytics, HANDOFF_REASONS } from '@parley/contract/ai-analytics';
import type { Period } from '@parley/contract/periods';
import { REPLY_OUTCOMES } from '@parley/contract/steering';
import type { AppContext } from '../../context.ts';
import { windowOf } from '../../lib/periods.ts';
import * as repo from './ai-analytics.repo.ts';

const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/**
 * `GET /api/workspaces/{ws}/analytics/ai` (docs/analytics.md "AI analytics"): the conversations
 * started in the period and the AI replies stored in it, counted live (the settled resolutions
 * are read from the conversations, docs/measuring.md "Resolution").
 */
export async function aiAnalytics(
  ctx: AppContext,
  workspaceId: string,
  period: Period,
  assistantId?: string,
): Promise<AiAnalytics> {
  const w = windowOf(period);
  const [days, outcomeRows] = await Promise.all([
    repo.aiConversationsByDay(ctx.db, workspaceId, w.since, assistantId),
    repo.aiOutcomes(ctx.db, workspaceId, w.since, assistantId),
  ]);
  const handoffs = zeros(HANDOFF_REASONS);
  const byDay = new Map(w.dates.map((date) => [date, { date, involved: 0, resolvedByAi: 0, handoffs: 0 }]));
  const totals = { conversations: 0, involved: 0, resolved: 0, pending: 0, settled: 0 };
  for (const r of days) {
    totals.conversations += r.conversations;
    totals.involved += r.involved;
    totals.resolved += r.resolved;
    totals.pending += r.pending;
    totals.settled += r.settled;
    for (const reason of HANDOFF_REASONS) handoffs[reason] += r[reason];
    const day = byDay.get(r.day);
    if (day) Object.assign(day, { involved: r.involved, resolvedByAi: r.resolved, handoffs: r.handoffs });
  }
  const outcomes = zeros(REPLY_OUTCOMES);
  for (const r of outcomeRows) {
    if ((REPLY_OUTCOMES as readonly string[]).includes(r.outcome)) {
      outcomes[r.outcome as keyof typeof outcomes] = r.replies;
    }
  }
  return {
    period,
    conversations: totals.conversations,
    involved: totals.involved,
    resolvedByAi: totals.resolved,
    resolvedByAiPending: totals.pending,
    aiResolutionRate: totals.settled > 0 ? totals.resolved / totals.settled : null,
    handoffs,
    outcomes,
    byDay: [...byDay.values()],
  };
}
