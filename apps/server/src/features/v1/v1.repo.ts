import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { workspaces } from '../../db/schema/index.ts';

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
