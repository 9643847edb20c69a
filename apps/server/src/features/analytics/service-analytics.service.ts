import type { Period } from '@parley/contract/periods';
import type { ServiceAnalytics, ServiceFigure } from '@parley/contract/service-analytics';
import type { AppContext } from '../../context.ts';
import { windowOf } from '../../lib/periods.ts';
import { toCsv } from './csv.ts';
import * as repo from './service-analytics.repo.ts';

/**
 * `GET /api/workspaces/{ws}/analytics/service` (docs/analytics.md "Service"): satisfaction ratings,
 * SLA policies met and breached, and the median times to a person's first reply and to closing,
 * over the period's whole UTC days. Which conversations each figure counts:
 * docs/decisions/0038-service-analytics.md.
 */
export async function serviceAnalytics(
  ctx: AppContext,
  workspaceId: string,
  period: Period,
): Promise<ServiceAnalytics> {
  const w = windowOf(period);
  const [csat, policies, medians, days] = await Promise.all([
    repo.csatFigures(ctx.db, workspaceId, w.since),
    repo.slaFigures(ctx.db, workspaceId, w.since),
    repo.medians(ctx.db, workspaceId, w.since),
    repo.serviceByDay(ctx.db, workspaceId, w.since),
  ]);
  const byDay = new Map(
    w.dates.map((date) => [date, { date, responses: 0, average: null as number | null, breaches: 0 }]),
  );
  for (const r of days.ratings) {
    const day = byDay.get(r.day);
    if (day) Object.assign(day, { responses: r.responses, average: r.average });
  }
  for (const r of days.breaches) {
    const day = byDay.get(r.day);
    if (day) day.breaches = r.breaches;
  }
  const { totals } = csat;
  return {
    csat: {
      responses: totals.responses,
      average: totals.average,
      satisfied: totals.responses > 0 ? totals.satisfied / totals.responses : null,
      byAgent: csat.byAgent.map((r) => ({
        userId: r.user_id,
        name: r.user_id === null ? 'Unassigned' : (r.name ?? ''),
        responses: r.responses,
        average: r.average,
      })),
      byAssistant: csat.byAssistant.map((r) => ({
        assistantId: r.assistant_id,
        name: r.name,
        responses: r.responses,
        average: r.average,
      })),
    },
    sla: {
      policies: policies.map((p) => ({
        policyId: p.policy_id,
        name: p.name,
        met: p.met,
        breached: p.breached,
        metRate: p.met + p.breached > 0 ? p.met / (p.met + p.breached) : null,
      })),
    },
    firstResponseMedianSeconds: seconds(medians.firstResponse),
    resolutionMedianSeconds: seconds(medians.resolution),
    byDay: [...byDay.values()],
  };
}

const seconds = (s: number | null) => (s === null ? null : Math.round(s));

/** At most this many rows in one CSV: a 90-day export of a busy workspace stays one response. */
export const CSV_MAX_ROWS = 10_000;

const HEADER = [
  'conversation_id',
  'assistant',
  'assignee',
  'channel',
  'handed_off_at',
  'first_response_at',
  'closed_at',
  'rating',
  'comment',
  'policy',
  'breaches',
] as const;

/** The conversations behind one figure of the report, as CSV (docs/analytics.md "Service"). */
export async function serviceCsv(
  ctx: AppContext,
  workspaceId: string,
  period: Period,
  figure: ServiceFigure,
): Promise<string> {
  const w = windowOf(period);
  const rows = await repo.figureConversations(ctx.db, workspaceId, w.since, figure, CSV_MAX_ROWS);
  return toCsv(
    HEADER,
    rows.map((r) => [
      r.id,
      r.assistant,
      r.assignee,
      r.channel,
      r.handed_off_at,
      r.first_response_at,
      r.closed_at,
      r.rating,
      r.comment,
      r.policy,
      r.breaches.map((b) => `${b.kind} ${b.at}`).join('; '),
    ]),
  );
}
