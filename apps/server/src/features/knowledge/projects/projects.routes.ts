import { z } from 'zod';
import type { Feature } from '../../../app.ts';
import { dataOf, errorBody, iso } from '../../../http/envelope.ts';
import { offsetPage, offsetQuery } from '../../../http/pagination.ts';
import { tenantOf } from '../../../http/tenant.ts';
import { assertValid } from '../../../http/validation.ts';
import { createSourceBody, sourceSchema, toSource } from '../sources/sources.schemas.ts';
import * as sources from '../sources/sources.service.ts';
import { readUpload } from '../sources/upload.ts';
import type { ProjectRow } from './projects.repo.ts';
import * as svc from './projects.service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 413: errorBody };
const wsParams = z.object({ workspaceId: z.string().min(1).max(100) });
const pParams = wsParams.extend({ projectId: z.string().min(1).max(100) });
const dParams = pParams.extend({ documentId: z.string().min(1).max(100) });
const base = '/api/workspaces/:workspaceId/projects';
const tags = ['projects (Form B)'];
const read = { auth: 'user', permission: 'workspace.view', deferValidation: true } as const;
const manage = { auth: 'user', permission: 'assistants.manage', deferValidation: true } as const;

const projectBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).optional(),
});
const projectPatch = projectBody.partial();
const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  documentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const toProject = (r: { project: ProjectRow; documentCount: number }) => ({
  id: r.project.id,
  name: r.project.name,
  description: r.project.description,
  documentCount: Number(r.documentCount),
  createdAt: iso(r.project.createdAt),
  updatedAt: iso(r.project.updatedAt),
});
type P = { projectId: string; documentId?: string };

/** decisions §6: Form B projects of documents (same source types as an assistant's knowledge). */
export const projectsRoutes: Feature = (app, ctx) => {
  const owner = async (workspaceId: string, projectId: string) => {
    await svc.getProject(ctx, workspaceId, projectId);
    return { workspaceId, projectId };
  };

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        params: wsParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(projectSchema), ...errors },
      },
    },
    async (request) => {
      assertValid(request);
      const { rows, total } = await svc.listProjects(ctx, tenantOf(request).workspaceId, request.query);
      return { data: rows.map(toProject), total, limit: request.query.limit, offset: request.query.offset };
    },
  );

  app.post(
    base,
    {
      config: manage,
      schema: {
        tags,
        params: wsParams,
        body: projectBody,
        response: { 201: dataOf(projectSchema), ...errors },
      },
    },
    async (request, reply) => {
      assertValid(request);
      const row = await svc.createProject(ctx, tenantOf(request).workspaceId, request.body);
      return reply.status(201).send({ data: toProject({ project: row, documentCount: 0 }) });
    },
  );

  app.get(
    `${base}/:projectId`,
    { config: read, schema: { tags, params: pParams, response: { 200: dataOf(projectSchema), ...errors } } },
    async (request) => {
      return {
        data: toProject(
          await svc.getProject(ctx, tenantOf(request).workspaceId, (request.params as P).projectId),
        ),
      };
    },
  );

  app.patch(
    `${base}/:projectId`,
    {
      config: manage,
      schema: {
        tags,
        params: pParams,
        body: projectPatch,
        response: { 200: dataOf(projectSchema), ...errors },
      },
    },
    async (request) => {
      const ws = tenantOf(request).workspaceId;
      await svc.getProject(ctx, ws, (request.params as P).projectId);
      assertValid(request);
      return {
        data: toProject(await svc.updateProject(ctx, ws, (request.params as P).projectId, request.body)),
      };
    },
  );

  app.delete(
    `${base}/:projectId`,
    { config: manage, schema: { tags, params: pParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await svc.deleteProject(ctx, tenantOf(request).workspaceId, (request.params as P).projectId);
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/:projectId/documents`,
    {
      config: read,
      schema: {
        tags,
        params: pParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(sourceSchema), ...errors },
      },
    },
    async (request) => {
      const o = await owner(tenantOf(request).workspaceId, (request.params as P).projectId);
      assertValid(request);
      const { rows, total } = await sources.listSources(ctx, o, request.query);
      return { data: rows.map(toSource), total, limit: request.query.limit, offset: request.query.offset };
    },
  );

  app.post(
    `${base}/:projectId/documents`,
    {
      config: manage,
      schema: {
        tags,
        params: pParams,
        body: createSourceBody,
        response: { 201: dataOf(sourceSchema), ...errors },
      },
    },
    async (request, reply) => {
      const o = await owner(tenantOf(request).workspaceId, (request.params as P).projectId);
      assertValid(request);
      return reply.status(201).send({ data: toSource(await sources.createSource(ctx, o, request.body)) });
    },
  );

  app.post(
    `${base}/:projectId/documents/files`,
    {
      config: manage,
      schema: {
        tags,
        params: pParams,
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(sourceSchema), ...errors },
      },
    },
    async (request, reply) => {
      const o = await owner(tenantOf(request).workspaceId, (request.params as P).projectId);
      const upload = await readUpload(request, ctx.config.uploadLimitBytes);
      return reply.status(201).send({ data: toSource(await sources.createFileSource(ctx, o, upload)) });
    },
  );

  app.delete(
    `${base}/:projectId/documents/:documentId`,
    { config: manage, schema: { tags, params: dParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const p = request.params as P;
      const o = await owner(tenantOf(request).workspaceId, p.projectId);
      await sources.deleteSource(ctx, o, p.documentId ?? '');
      return reply.status(204).send();
    },
  );
};
