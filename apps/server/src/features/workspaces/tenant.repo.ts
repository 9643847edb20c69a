import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { membershipColumns, membershipOf, membershipWorkspace, planColumns } from '../../db/membership.ts';
import { preparedFor } from '../../db/prepared.ts';
import { memberships, workspaces } from '../../db/schema/index.ts';

// The tenant guard runs on every workspace request: prepared once (db/prepared.ts).
const membershipWithPlan = preparedFor((db) =>
  db
    .select({ id: workspaces.id, ...membershipColumns })
    .from(memberships)
    .innerJoin(workspaces, membershipWorkspace)
    .where(membershipOf(sql.placeholder('userId')))
    .limit(1)
    .prepare('parley_membership_with_plan'),
);

export async function findMembershipWithPlan(db: Executor, workspaceId: string, userId: string) {
  const [row] = await membershipWithPlan(db).execute({ workspaceId, userId });
  return row;
}

const workspacePlan = preparedFor((db) =>
  db
    .select({ id: workspaces.id, ...planColumns })
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('workspaceId')))
    .limit(1)
    .prepare('parley_workspace_plan'),
);

export async function findWorkspacePlan(db: Executor, workspaceId: string) {
  const [row] = await workspacePlan(db).execute({ workspaceId });
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
