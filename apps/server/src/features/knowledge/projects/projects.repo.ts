import { type AnyColumn, and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.ts';
import { assistantProjects, projects } from '../../../db/schema/index.ts';

/**
 * The namespaces an assistant answers from (its own and each connected project's) with their
 * versions (0: never written), as rows of `(namespace, version)`. `assistantId` is a value or a
 * column: every retrieval starts here, and the exact vector search needs the versions to trust its
 * cache (vector-cache.ts).
 */
const namespacesOf = (assistantId: AnyColumn | string) =>
  sql`select n.namespace, coalesce(v.version, 0) as version
      from (select ${assistantId}::text as namespace
            union all
            select project_id from assistant_projects where assistant_id = ${assistantId}) n
      left join namespace_versions v on v.namespace = n.namespace`;

export async function namespacesWithVersions(db: Executor, assistantId: string) {
  return queryRows<{ namespace: string; version: number | string }>(db, namespacesOf(assistantId));
}

/**
 * The same as one JSON value, `[[namespace, version], ...]`, for a query that reads the assistant
 * anyway (a chat's first read, assistants.repo.ts): the scope then costs no round trip of its own.
 */
export const namespacesJson = (assistantId: AnyColumn) =>
  sql<[string, number | string][]>`(select json_agg(json_build_array(s.namespace, s.version))
      from (${namespacesOf(assistantId)}) s)`;

export async function projectCountMap(db: Executor, assistantIds: string[]): Promise<Map<string, number>> {
  if (assistantIds.length === 0) return new Map();
  const rows = await db
    .select({ assistantId: assistantProjects.assistantId, n: count() })
    .from(assistantProjects)
    .where(inArray(assistantProjects.assistantId, assistantIds))
    .groupBy(assistantProjects.assistantId);
  return new Map(rows.map((r) => [r.assistantId, r.n]));
}

export type ProjectRow = typeof projects.$inferSelect;

const documentCount = sql<number>`(select count(*)::int from knowledge_sources s where s.project_id = "projects"."id")`;

export async function insertProject(db: Executor, row: typeof projects.$inferInsert): Promise<ProjectRow> {
  const [created] = await db.insert(projects).values(row).returning();
  return created!;
}

export async function listProjects(
  db: Executor,
  workspaceId: string,
  page: { limit: number; offset: number },
) {
  const where = eq(projects.workspaceId, workspaceId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ project: projects, documentCount })
      .from(projects)
      .where(where)
      .orderBy(desc(projects.createdAt), desc(projects.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(projects).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findProject(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select({ project: projects, documentCount })
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)))
    .limit(1);
  return row;
}

export async function updateProject(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<typeof projects.$inferInsert>,
) {
  await db
    .update(projects)
    .set(patch)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)));
}

export async function deleteProject(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** Inserts the link; false when it already existed. */
export async function connectProject(
  db: Executor,
  assistantId: string,
  projectId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .insert(assistantProjects)
    .values({ assistantId, projectId, connectedAt: at })
    .onConflictDoNothing()
    .returning({ projectId: assistantProjects.projectId });
  return rows.length > 0;
}

export async function disconnectProject(
  db: Executor,
  assistantId: string,
  projectId: string,
): Promise<boolean> {
  const rows = await db
    .delete(assistantProjects)
    .where(and(eq(assistantProjects.assistantId, assistantId), eq(assistantProjects.projectId, projectId)))
    .returning({ projectId: assistantProjects.projectId });
  return rows.length > 0;
}

export async function listConnected(db: Executor, assistantId: string) {
  return db
    .select({
      id: projects.id,
      name: projects.name,
      documentCount,
      connectedAt: assistantProjects.connectedAt,
    })
    .from(assistantProjects)
    .innerJoin(projects, eq(projects.id, assistantProjects.projectId))
    .where(eq(assistantProjects.assistantId, assistantId))
    .orderBy(desc(assistantProjects.connectedAt));
}
