import type { Plan } from '@parley/contract/plans';
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { ts } from './columns.ts';
import { workspaces } from './workspaces.ts';

/**
 * A workspace's billing beyond its plan (docs/billing.md "Plan lifecycle"): the Stripe customer and
 * subscription, the paid period, a downgrade or cancellation waiting for the period's end, and the
 * trial reminder already sent. One row per workspace, created on first need.
 */
export const workspaceBilling = pgTable(
  'workspace_billing',
  {
    workspaceId: text('workspace_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /**
     * When the subscription state applied last was true at Stripe (the event's `created`): an
     * older event arriving later is not applied over it (docs/billing.md "Stripe webhooks").
     */
    stripeStateAt: ts('stripe_state_at'),
    /** The end of the current paid period. */
    periodEnd: ts('period_end'),
    /** A lower plan taking effect at `periodEnd` (a downgrade). */
    pendingPlan: text('pending_plan').$type<Plan>(),
    /** Cancelled: access lasts to `periodEnd`, then Free; data deletion follows 30 days later. */
    canceledAt: ts('canceled_at'),
    /** The trial end the "3 days left" reminder was sent for: once per trial. */
    trialReminderFor: ts('trial_reminder_for'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('workspace_billing_customer_uq').on(t.stripeCustomerId),
    // The scheduled job's scan: a pending downgrade or cancellation whose period has ended.
    index('workspace_billing_due_idx')
      .on(t.periodEnd)
      .where(sql`pending_plan is not null or canceled_at is not null`),
  ],
);

/** Stripe events already applied, by Stripe's event id: a replay changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

/** Kinds of notification a user turned off (docs/notifications.md "Preferences"). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Kinds turned off for email. */
  emailOff: text('email_off').array().notNull().default(sql`'{}'::text[]`),
  /** Kinds turned off in the app. */
  inAppOff: text('in_app_off').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
