import type { Plan } from '@parley/contract/plans';
import { and, count, eq, gt, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts, stripeEvents, tickets, workspaceBilling, workspaces } from '../../db/schema/index.ts';

/**
 * Data access for plans and billing (docs/billing.md). Every query names its workspace, except the
 * lookups that run before one is known (db/pre-tenant.ts): a Stripe customer id, a Stripe event id,
 * and the lifecycle job's claims across workspaces, which return the workspaces they claimed.
 */

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

/**
 * The workspace's plan and billing state: the one read of the workspace row for billing (the
 * summary, the actions, Stripe's events, plan changes). `lock` takes it FOR UPDATE, for a change
 * in the caller's transaction.
 */
export async function findWorkspace(db: Executor, workspaceId: string, opts: { lock?: boolean } = {}) {
  const q = db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

/** The plan in force from now on: an explicit plan ends a running trial. */
export async function setPlan(
  tx: Executor,
  workspaceId: string,
  plan: Plan,
  billingStatus: string,
  at: Date,
) {
  await tx
    .update(workspaces)
    .set({ plan, billingStatus, trialEndsAt: null, updatedAt: at })
    .where(eq(workspaces.id, workspaceId));
}

/** `past_due` after a failed payment, `active` again once one is paid. */
export async function setBillingStatus(tx: Executor, workspaceId: string, billingStatus: string, at: Date) {
  await tx.update(workspaces).set({ billingStatus, updatedAt: at }).where(eq(workspaces.id, workspaceId));
}

export type BillingWorkspace = NonNullable<Awaited<ReturnType<typeof findWorkspace>>>;

/** Rows counted against the plan quotas (docs/api.md "Plans": CRM contacts, support tickets). */
export async function usageCounts(db: Executor, workspaceId: string) {
  const [[c], [t]] = await Promise.all([
    db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, workspaceId)),
    db.select({ n: count() }).from(tickets).where(eq(tickets.workspaceId, workspaceId)),
  ]);
  return { contacts: c?.n ?? 0, tickets: t?.n ?? 0 };
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
