import type { Language } from '@parley/contract/languages';
import { and, asc, count, eq, like, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { memberships, type Role, users, workspaces } from '../../db/schema/index.ts';

export type WorkspaceRow = typeof workspaces.$inferSelect;

const listColumns = {
  id: workspaces.id,
  name: workspaces.name,
  slug: workspaces.slug,
  plan: workspaces.plan,
  billingStatus: workspaces.billingStatus,
  trialEndsAt: workspaces.trialEndsAt,
  createdAt: workspaces.createdAt,
  defaultLanguage: workspaces.defaultLanguage,
};

/**
 * Serializes workspace creation per user (the one-workspace rule of docs/workspaces.md "Workspaces", under
 * concurrency): concurrent transactions of one user queue on this row lock, so each sees the others' commits.
 * NO KEY UPDATE still excludes itself but lets rows referencing the user (sessions, tokens) be inserted.
 */
export async function lockUser(tx: Executor, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  return rows.length > 0;
}

export function ownedWorkspacePlans(tx: Executor, userId: string) {
  return tx
    .select({
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
    })
    .from(workspaces)
    .where(eq(workspaces.ownerId, userId));
}

/** Inserts unless the slug is taken (then undefined): no aborted transaction on a collision. */
export async function insertWorkspaceIfSlugFree(tx: Executor, row: typeof workspaces.$inferInsert) {
  const [created] = await tx
    .insert(workspaces)
    .values(row)
    .onConflictDoNothing({ target: workspaces.slug })
    .returning();
  return created;
}

/** Slugs equal to `base` or `base-...` (slugs hold no LIKE wildcards: [a-z0-9-] only). */
export async function slugsLike(tx: Executor, base: string): Promise<Set<string>> {
  const rows = await tx
    .select({ slug: workspaces.slug })
    .from(workspaces)
    .where(or(eq(workspaces.slug, base), like(workspaces.slug, `${base}-%`)));
  return new Set(rows.map((r) => r.slug));
}

export async function insertMembership(
  tx: Executor,
  row: { workspaceId: string; userId: string; role: Role; joinedAt: Date },
) {
  await tx.insert(memberships).values(row);
}

/** The caller's workspaces, oldest first; `total` rides along as a window count. */
export async function listForUser(db: Executor, userId: string, limit: number, offset: number) {
  const rows = await db
    .select({ ...listColumns, role: memberships.role, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id))
    .limit(limit)
    .offset(offset);
  if (rows.length > 0 || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
  // Past the end the window count has no row to ride on.
  const [c] = await db.select({ n: count() }).from(memberships).where(eq(memberships.userId, userId));
  return { rows, total: c?.n ?? 0 };
}

/** One query for the single-workspace view: the row plus both counts as scalar subqueries. */
// Prepared once (db/prepared.ts): GET /api/workspaces/{id} is a hot read (docs/performance.md).
const detail = preparedFor((db) =>
  db
    .select({
      ...listColumns,
      // Written out in full: drizzle drops table qualifiers inside selected sql, and a bare
      // "id" would bind to the subquery's own table.
      memberCount:
        sql<number>`(select count(*) from memberships m where m.workspace_id = workspaces.id)`.mapWith(
          Number,
        ),
      assistantCount:
        sql<number>`(select count(*) from assistants a where a.workspace_id = workspaces.id)`.mapWith(Number),
    })
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('workspaceId')))
    .prepare('parley_workspace_detail'),
);

export async function findDetail(db: Executor, workspaceId: string) {
  const [row] = await detail(db).execute({ workspaceId });
  return row;
}

export async function updateWorkspace(
  db: Executor,
  workspaceId: string,
  patch: { name?: string; slug?: string; defaultLanguage?: Language; updatedAt: Date },
) {
  const [row] = await db.update(workspaces).set(patch).where(eq(workspaces.id, workspaceId)).returning();
  return row;
}

export async function deleteWorkspace(db: Executor, workspaceId: string): Promise<boolean> {
  const rows = await db
    .delete(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}

/** Locks the workspace row so ownership and membership changes of one workspace run one at a time. */
export async function lockWorkspace(tx: Executor, workspaceId: string) {
  const [row] = await tx
    .select({ ownerId: workspaces.ownerId })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    // NO KEY UPDATE: excludes other lockers, not inserts of rows referencing the workspace.
    .for('no key update');
  return row;
}

export async function setOwner(tx: Executor, workspaceId: string, ownerId: string, at: Date) {
  await tx.update(workspaces).set({ ownerId, updatedAt: at }).where(eq(workspaces.id, workspaceId));
}

export async function setRole(tx: Executor, workspaceId: string, userId: string, role: Role) {
  const rows = await tx
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

// Prepared once (db/prepared.ts): the connection test automation tools call (docs/performance.md).
const summary = preparedFor((db) =>
  db
    .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug })
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('workspaceId')))
    .limit(1)
    .prepare('parley_workspace_summary'),
);

export async function findWorkspaceSummary(db: Executor, workspaceId: string) {
  const [row] = await summary(db).execute({ workspaceId });
  return row;
}
