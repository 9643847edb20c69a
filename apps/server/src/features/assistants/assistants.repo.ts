import { and, count, desc, eq, exists, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { assistantAccess, assistants, memberships, workspaces } from '../../db/schema/index.ts';
import { namespacesJson } from '../knowledge/projects/projects.repo.ts';
import { hasRealtimeSources } from '../knowledge/sources/sources.repo.ts';

export type AssistantRow = typeof assistants.$inferSelect;

/**
 * Rows a user may see: all for managers; otherwise non-private, own, or granted
 * (docs/api.md "Roles and permissions").
 */
function visibleTo(userId: string | null) {
  if (userId === null) return undefined;
  return or(
    sql`${assistants.visibility} <> 'private'`,
    eq(assistants.createdBy, userId),
    exists(
      sql`(select 1 from ${assistantAccess} where ${assistantAccess.assistantId} = ${assistants.id} and ${assistantAccess.userId} = ${userId})`,
    ),
  );
}

export async function insertAssistant(
  db: Executor,
  row: typeof assistants.$inferInsert,
): Promise<AssistantRow> {
  const [created] = await db.insert(assistants).values(row).returning();
  return created!;
}

/** An assistant of one workspace (the tenant filter is in the WHERE). */
// Most assistant routes read it: prepared once (db/prepared.ts).
const assistantIn = preparedFor((db) =>
  db
    .select()
    .from(assistants)
    .where(
      and(
        eq(assistants.id, sql.placeholder('id')),
        eq(assistants.workspaceId, sql.placeholder('workspaceId')),
      ),
    )
    .limit(1)
    .prepare('parley_assistant_in_workspace'),
);

export async function findAssistant(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<AssistantRow | undefined> {
  const [row] = await assistantIn(db).execute({ id, workspaceId });
  return row;
}

/**
 * An assistant with the user's standing in its workspace, in one query (a chat's first read),
 * found only among the workspaces the user belongs to: the membership, the workspace's plan fields, whether the user holds
 * an access grant to it, and what a reply needs of its knowledge before retrieving (the
 * namespaces with their versions, and whether it has realtime sources).
 */
const assistantForUser = preparedFor((db) =>
  db
    .select({
      assistant: assistants,
      role: memberships.role,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
      granted: sql<boolean>`exists (select 1 from ${assistantAccess} where ${assistantAccess.assistantId} = ${assistants.id} and ${assistantAccess.userId} = ${sql.placeholder('userId')})`,
      namespaces: namespacesJson(assistants.id),
      hasRealtime: hasRealtimeSources(assistants.id),
    })
    .from(assistants)
    .innerJoin(workspaces, eq(workspaces.id, assistants.workspaceId))
    .innerJoin(
      memberships,
      and(
        eq(memberships.workspaceId, assistants.workspaceId),
        eq(memberships.userId, sql.placeholder('userId')),
      ),
    )
    .where(eq(assistants.id, sql.placeholder('id')))
    .limit(1)
    .prepare('parley_assistant_of_member'),
);

export async function findAssistantForUser(db: Executor, id: string, userId: string) {
  const [row] = await assistantForUser(db).execute({ id, userId });
  return row;
}

export async function hasAccessGrant(db: Executor, assistantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(assistantAccess)
    .where(and(eq(assistantAccess.assistantId, assistantId), eq(assistantAccess.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** `restrictTo`: a user id whose private-visibility rules apply, or null for managers. */
export async function listAssistants(
  db: Executor,
  workspaceId: string,
  restrictTo: string | null,
  page: { limit: number; offset: number },
) {
  const where = and(eq(assistants.workspaceId, workspaceId), visibleTo(restrictTo));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(assistants)
      .where(where)
      .orderBy(desc(assistants.createdAt), desc(assistants.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(assistants).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function updateAssistant(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<typeof assistants.$inferInsert>,
): Promise<AssistantRow | undefined> {
  const [row] = await db
    .update(assistants)
    .set(patch)
    .where(and(eq(assistants.id, id), eq(assistants.workspaceId, workspaceId)))
    .returning();
  return row;
}

export async function deleteAssistant(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(assistants)
    .where(and(eq(assistants.id, id), eq(assistants.workspaceId, workspaceId)))
    .returning({ id: assistants.id });
  return rows.length > 0;
}

export async function grantAccess(db: Executor, assistantId: string, userId: string) {
  await db.insert(assistantAccess).values({ assistantId, userId }).onConflictDoNothing();
}

export async function revokeAccess(db: Executor, assistantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(assistantAccess)
    .where(and(eq(assistantAccess.assistantId, assistantId), eq(assistantAccess.userId, userId)))
    .returning({ userId: assistantAccess.userId });
  return rows.length > 0;
}
