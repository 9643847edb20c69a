import type { Language } from '@parley/contract/languages';
import type { Plan } from '@parley/contract/plans';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { ts } from './columns.ts';

export type Role = 'owner' | 'admin' | 'member' | 'guest';

export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    plan: text('plan').$type<Plan>().notNull().default('pro'),
    trialEndsAt: ts('trial_ends_at'),
    billingStatus: text('billing_status').notNull().default('trialing'),
    /** Monthly credits agreed for this workspace (Enterprise is custom); null: the plan's allowance. */
    monthlyCredits: integer('monthly_credits'),
    /** docs/languages.md "Widget": the widget's language when the visitor's is not supported. */
    defaultLanguage: text('default_language').$type<Language>().notNull().default('en'),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workspaces_slug_uq').on(t.slug), index('workspaces_owner_idx').on(t.ownerId)],
);

export type Availability = 'online' | 'busy' | 'offline';

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<Role>().notNull(),
    joinedAt: ts('joined_at').notNull().defaultNow(),
    /** Whether they take conversations now (docs/workspaces.md "Availability"). */
    availability: text('availability').$type<Availability>().notNull().default('offline'),
    /**
     * While their inbox stream is open, refreshed every minute; then when it closed. Auto-assignment
     * counts them present for 5 minutes after (docs/inbox.md "Auto-assignment").
     */
    inboxSeenAt: ts('inbox_seen_at'),
    /** When a conversation was last assigned to them: auto-assignment's tie-break. */
    lastAssignedAt: ts('last_assigned_at'),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<Role>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_uq').on(t.tokenHash),
    uniqueIndex('invitations_pending_email_uq').on(t.workspaceId, t.email).where(sql`accepted_at is null`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    keyHash: text('key_hash').notNull(),
    last4: text('last4').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_workspace_idx').on(t.workspaceId)],
);
