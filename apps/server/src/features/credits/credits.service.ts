import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import type { PlanStanding } from '../workspaces/plan.ts';
import { raiseAlert } from './alerts.ts';
import {
  type AllowanceInput,
  creditLimit,
  monthlyCreditsFor,
  periodOf,
  standing,
  warningThreshold,
} from './allowance.ts';
import * as repo from './credits.repo.ts';

/**
 * Credits (docs/credits.md): one credit per AI reply, reserved
 * here before the model is called (the one place credits are spent, docs/architecture.md "Rules"), given
 * back if the model fails before any text. Periods are calendar months in UTC.
 */

export { monthlyCreditsFor } from './allowance.ts';

export type Reservation = { workspaceId: string; periodStart: Date; used: number; limit: number };
export type CreditSummary = { limit: number; used: number; remaining: number; resetsAt: string };

const same = (a: number | null, b: number) => a !== null && a === b;

async function workspaceOf(ctx: AppContext, workspaceId: string) {
  const ws = await repo.findWorkspace(ctx.db, workspaceId);
  if (!ws) throw notFound('Workspace');
  return ws;
}

/** A statement that takes one credit (repo.takeCreditSql), alone or with what it pays for. */
export type TakeCredit = (claim: repo.CreditClaim) => Promise<repo.Reserved | undefined>;

/**
 * Reserves one credit atomically (a single conditional statement, never read-then-write); throws
 * 403 `credits_limit_exceeded` when none are left, before anything is stored or streamed. The row
 * is created lazily, and an ended period is replaced by the current one in the same statement.
 * `standing` is the workspace's plan as the caller's request already read it (the tenant guard's);
 * without it, it is read here. `take`: the statement, by default the credit alone; a chat turn
 * stores its message in the same one (chat/turn.ts), so that nothing is stored without a credit
 * and no credit is taken for a turn not stored.
 */
export async function reserveCredit(
  ctx: AppContext,
  workspaceId: string,
  standing?: PlanStanding,
  take: TakeCredit = (claim) => repo.reserve(ctx.db, claim),
): Promise<Reservation> {
  const limit = standing
    ? creditLimit(standing, ctx.config)
    : monthlyCreditsFor(await workspaceOf(ctx, workspaceId), ctx.config);
  const at = now();
  const period = periodOf(at);
  const row =
    limit > 0
      ? await take({
          workspaceId,
          limit,
          periodStart: period.start.toISOString(),
          periodEnd: period.end.toISOString(),
          now: at.toISOString(),
        })
      : undefined;
  if (!row) {
    // Also covers a limit lowered under the usage (downgrade, trial end): the 100% alert still
    // goes out once, and a lost alert (crash after the reservation) is sent on the next try.
    await raiseAlert(ctx, workspaceId, 100, limit, at);
    throw new AppError(
      'credits_limit_exceeded',
      'This workspace has used all its monthly credits; AI replies resume after the monthly reset or an upgrade',
      { limit, resetsAt: period.end.toISOString() },
    );
  }
  if (row.used >= limit) {
    if (!same(row.alert100For, row.periodStart)) await raiseAlert(ctx, workspaceId, 100, limit, at);
  } else if (row.used >= warningThreshold(limit) && !same(row.alert80For, row.periodStart)) {
    await raiseAlert(ctx, workspaceId, 80, limit, at);
  }
  return { workspaceId, periodStart: new Date(row.periodStart), used: row.used, limit };
}

/** Gives back a reservation (the model failed before any text): same period only, never below 0. */
export async function refundCredit(ctx: AppContext, r: Reservation): Promise<void> {
  await repo.refund(ctx.db, r.workspaceId, r.periodStart, now());
}

/**
 * The workspace's credits at `at`: `{limit, used, remaining, resetsAt}` (docs/credits.md). `ws`:
 * the workspace row the caller already read (the billing summary's), else it is read here.
 */
export async function creditSummary(
  ctx: AppContext,
  workspaceId: string,
  ws?: AllowanceInput,
  at = now(),
): Promise<CreditSummary> {
  const [allowance, row] = await Promise.all([
    ws ?? workspaceOf(ctx, workspaceId),
    repo.findCredits(ctx.db, workspaceId),
  ]);
  return standing(row, monthlyCreditsFor(allowance, ctx.config), at);
}
