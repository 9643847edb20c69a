import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { workspaces } from '../../db/schema/index.ts';

export async function findWorkspaceSummary(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  return row;
}
