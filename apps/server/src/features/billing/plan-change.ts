import type { Plan } from '@parley/contract/plans';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { recordEvent } from '../events/events.service.ts';
import { effectivePlan } from '../workspaces/plan.ts';
import * as repo from './billing.repo.ts';

/**
 * The one way a workspace's plan changes (docs/billing.md "Plan changes"): the operator command,
 * Stripe's webhooks, the scheduled downgrade and the trial end all come here. The row changes and
 * `workspace.plan_changed` is recorded in the same transaction; quotas and credits follow at once,
 * since both are read from the row on every request (features/workspaces/plan.ts).
 */

export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise'];

export type PlanChange = { workspaceId: string; from: Plan; to: Plan; effectiveAt: string; changed: boolean };

export type ApplyOptions = {
  /** Billing status after the change: `active` unless Stripe says otherwise (`past_due`, ...). */
  status?: string;
  /** When it takes effect (the event's `effectiveAt`); now by default. */
  at?: Date;
  /** The plan it changes from, when the row no longer says it (a trial that has run out). */
  from?: Plan;
};

/** Applies `to` inside `tx` (the caller's transaction); the row is locked for the change. */
export async function applyPlanIn(
  tx: Executor,
  workspaceId: string,
  to: Plan,
  opts: ApplyOptions = {},
): Promise<PlanChange> {
  const ws = await repo.findWorkspace(tx, workspaceId, { lock: true });
  if (!ws) throw notFound('Workspace');
  const at = opts.at ?? now();
  const from = opts.from ?? effectivePlan(ws);
  const status = opts.status ?? 'active';
  // An explicit plan ends a running trial: the workspace is on the chosen plan from now on.
  await repo.setPlan(tx, workspaceId, to, status, at);
  const effectiveAt = at.toISOString();
  const changed = from !== to;
  if (changed) {
    await recordEvent(tx, {
      workspaceId,
      type: 'workspace.plan_changed',
      data: { workspaceId, from, to, effectiveAt },
    });
  }
  return { workspaceId, from, to, effectiveAt, changed };
}

/** Applies `to` in its own transaction. */
export async function applyPlan(
  ctx: AppContext,
  workspaceId: string,
  to: Plan,
  opts: ApplyOptions = {},
): Promise<PlanChange> {
  return ctx.db.transaction((tx) => applyPlanIn(tx, workspaceId, to, opts));
}
