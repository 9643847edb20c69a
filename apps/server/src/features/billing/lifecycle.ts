import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { addDays, now } from '../../lib/clock.ts';
import { trialEndedNotice } from '../notifications/templates/trial-ended.ts';
import { trialEndingNotice } from '../notifications/templates/trial-ending.ts';
import * as repo from './billing.repo.ts';
import { withAdminNotices } from './notices.ts';
import { applyPlanIn } from './plan-change.ts';

/**
 * The plan lifecycle (docs/billing.md "Plan lifecycle"), as the `billing-lifecycle` job
 * (jobs/catalog.ts): a trial that has run out becomes Free (event and email), a trial three days
 * from its end is reminded once, and a downgrade or cancellation takes effect when its paid period
 * ends. Each pass claims its rows with SKIP LOCKED, so every process may run it.
 */

const BATCH = 100;
export const TRIAL_REMINDER_DAYS = 3;

/** Trials that have run out move to Free; returns how many. */
export async function endTrials(ctx: AppContext): Promise<number> {
  const at = now();
  return withAdminNotices(ctx, async (tx, notify) => {
    const due = await repo.claimEndedTrials(tx, at, BATCH);
    for (const ws of due) {
      await applyPlanIn(tx, ws.id, 'free', { from: 'pro', at: ws.trialEndsAt ?? at });
      await notify(ws.id, trialEndedNotice(ws));
    }
    return due.length;
  });
}

/** "Your trial ends in 3 days", once per trial end; returns how many. */
export async function remindTrials(ctx: AppContext): Promise<number> {
  const at = now();
  return withAdminNotices(ctx, async (tx, notify) => {
    const due = await repo.claimTrialsToRemind(tx, at, addDays(at, TRIAL_REMINDER_DAYS), BATCH);
    for (const ws of due) {
      if (!ws.trialEndsAt) continue;
      await repo.saveBilling(tx, ws.id, { trialReminderFor: ws.trialEndsAt }, at);
      await notify(ws.id, trialEndingNotice(ws, ws.trialEndsAt));
    }
    return due.length;
  });
}

/** Downgrades and cancellations whose period has ended take effect; returns how many. */
export async function applyPeriodEnds(ctx: AppContext): Promise<number> {
  const at = now();
  return ctx.db.transaction(async (tx) => {
    const due = await repo.claimPeriodEnds(tx, at, BATCH);
    for (const row of due) {
      const to = row.canceledAt ? 'free' : (row.pendingPlan ?? 'free');
      await applyPlanIn(tx, row.workspaceId, to, { at: row.periodEnd ?? at });
      // Cancelled: nothing is paid any more; a downgrade to a paid plan runs on (Stripe renews it).
      await repo.saveBilling(
        tx,
        row.workspaceId,
        row.canceledAt || to === 'free'
          ? { pendingPlan: null, periodEnd: null, stripeSubscriptionId: null }
          : { pendingPlan: null },
        at,
      );
    }
    return due.length;
  });
}

export async function lifecycleStep(ctx: AppContext): Promise<boolean> {
  const counts = [await endTrials(ctx), await remindTrials(ctx), await applyPeriodEnds(ctx)];
  return counts.some((c) => c === BATCH);
}

export function billingLifecycleJob(ctx: AppContext): Job {
  return { step: () => lifecycleStep(ctx) };
}
