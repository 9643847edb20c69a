import type { AppContext } from '../../../context.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import { now } from '../../../lib/clock.ts';
import { newId } from '../../../lib/ids.ts';
import { bumpNamespace } from '../sources/sources.repo.ts';
import * as repo from './projects.repo.ts';

/** Form B projects (docs/knowledge.md): workspace-level; deleting an assistant never deletes one. */
export async function createProject(
  ctx: AppContext,
  workspaceId: string,
  input: { name: string; description?: string },
) {
  const at = now();
  return repo.insertProject(ctx.db, {
    id: newId('prj'),
    workspaceId,
    name: input.name,
    description: input.description ?? '',
    createdAt: at,
    updatedAt: at,
  });
}

export const listProjects = (ctx: AppContext, workspaceId: string, page: { limit: number; offset: number }) =>
  repo.listProjects(ctx.db, workspaceId, page);

export async function getProject(ctx: AppContext, workspaceId: string, projectId: string) {
  const row = projectId.length <= 100 ? await repo.findProject(ctx.db, workspaceId, projectId) : undefined;
  if (!row) throw notFound('Project');
  return row;
}

export async function updateProject(
  ctx: AppContext,
  workspaceId: string,
  projectId: string,
  patch: { name?: string; description?: string },
) {
  await repo.updateProject(ctx.db, workspaceId, projectId, { ...patch, updatedAt: now() });
  return getProject(ctx, workspaceId, projectId);
}

export async function deleteProject(ctx: AppContext, workspaceId: string, projectId: string) {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteProject(tx, workspaceId, projectId))) throw notFound('Project');
    await bumpNamespace(tx, projectId);
  });
}

export async function connect(ctx: AppContext, workspaceId: string, assistantId: string, projectId: string) {
  await getProject(ctx, workspaceId, projectId);
  if (!(await repo.connectProject(ctx.db, assistantId, projectId, now()))) {
    throw conflict('This project is already connected to the assistant');
  }
}

export async function disconnect(ctx: AppContext, assistantId: string, projectId: string) {
  if (!(await repo.disconnectProject(ctx.db, assistantId, projectId))) throw notFound('Connected project');
}

export const listConnected = (ctx: AppContext, assistantId: string) =>
  repo.listConnected(ctx.db, assistantId);
export const projectCountMap = (ctx: AppContext, assistantIds: string[]) =>
  repo.projectCountMap(ctx.db, assistantIds);
