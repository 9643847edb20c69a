import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findProject } from './projects/projects.repo.ts';
import { findSource, type SourceRow } from './sources/sources.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A knowledge source of the assistant loaded before it (`:sourceId`). */
    source: SourceRow;
    /** A project with its document count. */
    project: NonNullable<Awaited<ReturnType<typeof findProject>>>;
    /** A source of the project loaded before it (`:documentId`). */
    document: SourceRow;
  }
}

export const sourceResource = defineResource({
  kind: 'source',
  param: 'sourceId',
  notFound: resourceNotFound('Source'),
  load: (ctx, { tenant, loaded }, id) =>
    findSource(ctx.db, { workspaceId: tenant.workspaceId, assistantId: loaded.assistant?.row.id ?? '' }, id),
});

export const projectResource = defineResource({
  kind: 'project',
  param: 'projectId',
  notFound: resourceNotFound('Project'),
  load: (ctx, { tenant }, id) => findProject(ctx.db, tenant.workspaceId, id),
});

export const documentResource = defineResource({
  kind: 'document',
  param: 'documentId',
  notFound: resourceNotFound('Source'),
  load: (ctx, { tenant, loaded }, id) =>
    findSource(ctx.db, { workspaceId: tenant.workspaceId, projectId: loaded.project?.project.id ?? '' }, id),
});
