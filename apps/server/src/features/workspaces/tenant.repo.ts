import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { memberships, workspaces } from '../../db/schema/index.ts';

const planColumns = {
  id: workspaces.id,
  plan: workspaces.plan,
  trialEndsAt: workspaces.trialEndsAt,
  billingStatus: workspaces.billingStatus,
};

export async function findMembershipWithPlan(db: Executor, workspaceId: string, userId: string) {
  const [row] = await db
    .select({ ...planColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row;
}

export async function findWorkspacePlan(db: Executor, workspaceId: string) {
  const [row] = await db.select(planColumns).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return row;
}

export async function firstMembershipWorkspaceIds(db: Executor, userId: string, limit: number) {
  const rows = await db
    .select({ workspaceId: memberships.workspaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .limit(limit);
  return rows.map((r) => r.workspaceId);
}
