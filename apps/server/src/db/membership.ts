import { and, eq, type Placeholder, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { memberships, workspaces } from './schema/index.ts';

/**
 * The caller's membership in a workspace, the one query the tenant guard runs (http/tenant.ts),
 * alone (features/workspaces/tenant.repo.ts) or joined onto a credential lookup
 * (features/auth/credentials.repo.ts): the membership of `userId` in the workspace named by the
 * statement's `workspaceId` placeholder, with the workspace's plan columns read in the same query.
 */

/** The workspace's plan, as every request's plan checks read it (features/workspaces/plan.ts). */
export const planColumns = {
  plan: workspaces.plan,
  trialEndsAt: workspaces.trialEndsAt,
  billingStatus: workspaces.billingStatus,
  monthlyCredits: workspaces.monthlyCredits,
};

/** The role and the plan: what the tenant guard takes from a membership. */
export const membershipColumns = { role: memberships.role, ...planColumns };

/** `userId`'s membership row in the placeholder's workspace (an ON or WHERE condition). */
export const membershipOf = (userId: AnyPgColumn | Placeholder) =>
  and(eq(memberships.userId, userId), eq(memberships.workspaceId, sql.placeholder('workspaceId')));

/** The membership's workspace (joined after `membershipOf`). */
export const membershipWorkspace = eq(workspaces.id, memberships.workspaceId);
