import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assistantProjects } from '../../db/schema/index.ts';

export async function connectedProjectIds(db: Executor, assistantId: string): Promise<string[]> {
  const rows = await db
    .select({ projectId: assistantProjects.projectId })
    .from(assistantProjects)
    .where(eq(assistantProjects.assistantId, assistantId));
  return rows.map((r) => r.projectId);
}
