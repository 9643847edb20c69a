import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  createSourceBody,
  lookupBody,
  lookupResult,
  searchQuery,
  searchResult,
  sourceSchema,
} from '@parley/contract/sources';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Feature } from '../../../http/feature.ts';
import { resourceOf } from '../../../http/tenant.ts';
import { retrieveForAssistant } from '../knowledge.service.ts';
import { realtimeLookup } from '../realtime/realtime.service.ts';
import { toSource } from './sources.serialize.ts';
import * as svc from './sources.service.ts';
import { readUpload } from './upload.ts';

const params = z.object({ assistantId: z.string().min(1).max(100) });
const sourceParams = params.extend({ sourceId: z.string().min(1).max(100) });
const read = { auth: 'session', resources: ['assistant'] } as const;
const manage = { ...read, permission: 'assistants.manage' } as const;
const readSource = { auth: 'session', resources: ['assistant', 'source'] } as const;
const manageSource = { ...readSource, permission: 'assistants.manage' } as const;
const tags = ['knowledge'];

const ownerOf = (request: FastifyRequest) => {
  const { row } = resourceOf(request, 'assistant');
  return { workspaceId: row.workspaceId, assistantId: row.id };
};

/** An assistant's own knowledge base, on the session surface (docs/knowledge.md). */
export const assistantSourcesRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/assistants/:assistantId/sources',
    {
      config: read,
      schema: {
        tags,
        params,
        querystring: offsetQuery,
        response: { 200: offsetPage(sourceSchema) },
      },
    },
    async (request) => {
      const { rows, total, pending } = await svc.listSources(ctx, ownerOf(request), request.query);
      return {
        data: rows.map((r) => toSource(r, pending.get(r.id))),
        total,
        limit: request.query.limit,
        offset: request.query.offset,
      };
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources',
    {
      config: manage,
      schema: { tags, params, body: createSourceBody, response: { 201: dataOf(sourceSchema) } },
    },
    async (request, reply) => {
      const source = await svc.createSource(ctx, ownerOf(request), request.body);
      return reply.status(201).send({ data: toSource(source) });
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/files',
    {
      config: manage,
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(sourceSchema) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, ctx.config.uploadLimitBytes);
      const source = await svc.createFileSource(ctx, ownerOf(request), upload);
      return reply.status(201).send({ data: toSource(source) });
    },
  );

  app.get(
    '/api/assistants/:assistantId/sources/:sourceId',
    {
      config: readSource,
      schema: { tags, params: sourceParams, response: { 200: dataOf(sourceSchema) } },
    },
    async (request) => ({ data: toSource(resourceOf(request, 'source')) }),
  );

  app.delete(
    '/api/assistants/:assistantId/sources/:sourceId',
    {
      config: manageSource,
      schema: { tags, params: sourceParams, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await svc.deleteSource(ctx, ownerOf(request), request.params.sourceId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/:sourceId/sync',
    {
      config: manageSource,
      schema: { tags, params: sourceParams, response: { 202: dataOf(sourceSchema) } },
    },
    async (request, reply) => {
      const source = await svc.syncSource(ctx, ownerOf(request), request.params.sourceId);
      return reply.status(202).send({ data: toSource(source) });
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/:sourceId/lookup',
    {
      config: readSource,
      schema: {
        tags,
        params: sourceParams,
        body: lookupBody,
        response: { 200: dataOf(lookupResult) },
      },
    },
    async (request) => {
      return { data: await realtimeLookup(ctx, resourceOf(request, 'source'), request.body) };
    },
  );

  app.get(
    '/api/assistants/:assistantId/search',
    {
      config: read,
      schema: {
        tags,
        params,
        querystring: searchQuery,
        response: { 200: z.object({ data: z.array(searchResult) }) },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const hits = await retrieveForAssistant(ctx, row, request.query.q, request.query.k);
      return { data: hits.map(({ namespace: _ns, ...hit }) => hit) };
    },
  );
};
