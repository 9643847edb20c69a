import { and, eq, gt, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { stripeEvents, workspaceBilling, workspaces } from '../../db/schema/index.ts';

/** Data access for plans and billing (docs/billing.md). Every query names its workspace. */

export type BillingRow = typeof workspaceBilling.$inferSelect;
export type BillingChange = Partial<Omit<typeof workspaceBilling.$inferInsert, 'workspaceId'>>;

export async function findBilling(db: Executor, workspaceId: string): Promise<BillingRow | undefined> {
  const [row] = await db
    .select()
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId))
    .limit(1);
  return row;
}

export async function findByCustomer(db: Executor, customerId: string): Promise<BillingRow | undefined> {
  const [row] = await db
    .select()
    .from(workspaceBilling)
    .where(eq(workspaceBilling.stripeCustomerId, customerId))
    .limit(1);
  return row;
}

/** Creates the row or changes the given columns. */
export async function saveBilling(db: Executor, workspaceId: string, change: BillingChange, at: Date) {
  await db
    .insert(workspaceBilling)
    .values({ workspaceId, ...change, updatedAt: at })
    .onConflictDoUpdate({ target: workspaceBilling.workspaceId, set: { ...change, updatedAt: at } });
}

/** True the first time an event id is seen (in the caller's transaction). */
export async function claimStripeEvent(db: Executor, id: string, type: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(stripeEvents)
    .values({ id, type, receivedAt: at })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return rows.length === 1;
}

export async function workspaceName(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  return row?.name;
}

/** Trials that have run out, locked for this pass (SKIP LOCKED: every process runs the job). */
export async function claimEndedTrials(db: Executor, at: Date, batch: number) {
  return db
    .select({ id: workspaces.id, name: workspaces.name, trialEndsAt: workspaces.trialEndsAt })
    .from(workspaces)
    .where(and(eq(workspaces.billingStatus, 'trialing'), lte(workspaces.trialEndsAt, at)))
    .limit(batch)
    .for('update', { skipLocked: true });
}

/** Trials ending within `until` whose reminder has not gone out for this trial end. */
export async function claimTrialsToRemind(db: Executor, at: Date, until: Date, batch: number) {
  return db
    .select({ id: workspaces.id, name: workspaces.name, trialEndsAt: workspaces.trialEndsAt })
    .from(workspaces)
    .leftJoin(workspaceBilling, eq(workspaceBilling.workspaceId, workspaces.id))
    .where(
      and(
        eq(workspaces.billingStatus, 'trialing'),
        gt(workspaces.trialEndsAt, at),
        lte(workspaces.trialEndsAt, until),
        sql`${workspaceBilling.trialReminderFor} is distinct from ${workspaces.trialEndsAt}`,
      ),
    )
    .limit(batch)
    .for('update', { of: workspaces, skipLocked: true });
}

/** A downgrade or cancellation whose paid period has ended. */
export async function claimPeriodEnds(db: Executor, at: Date, batch: number) {
  return db
    .select()
    .from(workspaceBilling)
    .where(
      and(
        or(isNotNull(workspaceBilling.pendingPlan), isNotNull(workspaceBilling.canceledAt)),
        lte(workspaceBilling.periodEnd, at),
      ),
    )
    .limit(batch)
    .for('update', { skipLocked: true });
}
