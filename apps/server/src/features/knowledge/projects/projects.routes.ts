import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import { projectBody, projectPatch, projectSchema } from '@parley/contract/projects';
import { createSourceBody, sourceSchema } from '@parley/contract/sources';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { iso } from '../../../http/envelope.ts';
import type { Feature } from '../../../http/feature.ts';
import { resourceOf, tenantOf } from '../../../http/tenant.ts';
import { toSource } from '../sources/sources.serialize.ts';
import * as sources from '../sources/sources.service.ts';
import { readUpload } from '../sources/upload.ts';
import type { ProjectRow } from './projects.repo.ts';
import * as svc from './projects.service.ts';

const wsParams = z.object({ workspaceId: z.string().min(1).max(100) });
const pParams = wsParams.extend({ projectId: z.string().min(1).max(100) });
const dParams = pParams.extend({ documentId: z.string().min(1).max(100) });
const base = '/api/workspaces/:workspaceId/projects';
const tags = ['projects (Form B)'];
const list = { auth: 'user', permission: 'workspace.view' } as const;
const create = { auth: 'user', permission: 'assistants.manage' } as const;
const read = { ...list, resources: ['project'] } as const;
const manage = { ...create, resources: ['project'] } as const;

const toProject = (r: { project: ProjectRow; documentCount: number }) => ({
  id: r.project.id,
  name: r.project.name,
  description: r.project.description,
  documentCount: Number(r.documentCount),
  createdAt: iso(r.project.createdAt),
  updatedAt: iso(r.project.updatedAt),
});
const ownerOf = (request: FastifyRequest) => ({
  workspaceId: tenantOf(request).workspaceId,
  projectId: resourceOf(request, 'project').project.id,
});

/** Form B projects of documents, the same source types as an assistant's knowledge (docs/knowledge.md). */
export const projectsRoutes: Feature = (app, ctx) => {
  app.get(
    base,
    {
      config: list,
      schema: {
        tags,
        params: wsParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(projectSchema) },
      },
    },
    async (request) => {
      const { rows, total } = await svc.listProjects(ctx, tenantOf(request).workspaceId, request.query);
      return { data: rows.map(toProject), total, limit: request.query.limit, offset: request.query.offset };
    },
  );

  app.post(
    base,
    {
      config: create,
      schema: {
        tags,
        params: wsParams,
        body: projectBody,
        response: { 201: dataOf(projectSchema) },
      },
    },
    async (request, reply) => {
      const row = await svc.createProject(ctx, tenantOf(request).workspaceId, request.body);
      return reply.status(201).send({ data: toProject({ project: row, documentCount: 0 }) });
    },
  );

  app.get(
    `${base}/:projectId`,
    { config: read, schema: { tags, params: pParams, response: { 200: dataOf(projectSchema) } } },
    async (request) => ({ data: toProject(resourceOf(request, 'project')) }),
  );

  app.patch(
    `${base}/:projectId`,
    {
      config: manage,
      schema: {
        tags,
        params: pParams,
        body: projectPatch,
        response: { 200: dataOf(projectSchema) },
      },
    },
    async (request) => {
      const { workspaceId, projectId } = ownerOf(request);
      return { data: toProject(await svc.updateProject(ctx, workspaceId, projectId, request.body)) };
    },
  );

  app.delete(
    `${base}/:projectId`,
    { config: manage, schema: { tags, params: pParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      const { workspaceId, projectId } = ownerOf(request);
      await svc.deleteProject(ctx, workspaceId, projectId);
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
        response: { 200: offsetPage(sourceSchema) },
      },
    },
    async (request) => {
      const { rows, total, pending } = await sources.listSources(ctx, ownerOf(request), request.query);
      return {
        data: rows.map((r) => toSource(r, pending.get(r.id))),
        total,
        limit: request.query.limit,
        offset: request.query.offset,
      };
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
        response: { 201: dataOf(sourceSchema) },
      },
    },
    async (request, reply) => {
      const source = await sources.createSource(ctx, ownerOf(request), request.body);
      return reply.status(201).send({ data: toSource(source) });
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
        response: { 201: dataOf(sourceSchema) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, ctx.config.uploadLimitBytes);
      const source = await sources.createFileSource(ctx, ownerOf(request), upload);
      return reply.status(201).send({ data: toSource(source) });
    },
  );

  app.delete(
    `${base}/:projectId/documents/:documentId`,
    {
      config: { ...create, resources: ['project', 'document'] },
      schema: { tags, params: dParams, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await sources.deleteSource(ctx, ownerOf(request), request.params.documentId);
      return reply.status(204).send();
    },
  );
};
