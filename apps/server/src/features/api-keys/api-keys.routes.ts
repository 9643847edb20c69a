import {
  apiKeySchema,
  createApiKeyBody,
  createdApiKeySchema,
  keyParams,
  workspaceParams,
} from '@parley/contract/api-keys';
import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { iso, isoOrNull } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import type { ApiKeyRow } from './api-keys.repo.ts';
import * as keys from './api-keys.service.ts';

/** Owner or admin, by cookie or personal access token (docs/api-keys.md "Managing keys (owner or admin)"). */
const config = { auth: 'user', permission: 'apiKeys.manage' } as const;

const toApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  last4: k.last4,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
});

/** Workspace API keys (docs/api-keys.md). */
export const apiKeysRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/workspaces/:workspaceId/api-keys',
    {
      config,
      schema: {
        tags: ['api-keys'],
        params: workspaceParams,
        body: createApiKeyBody,
        response: { 201: dataOf(createdApiKeySchema) },
      },
    },
    async (request, reply) => {
      const { row, key } = await keys.createApiKey(ctx, tenantOf(request), userIdOf(request), request.body);
      const { lastUsedAt: _unused, ...shown } = toApiKey(row);
      return reply.status(201).send({ data: { ...shown, key } });
    },
  );

  app.get(
    '/api/workspaces/:workspaceId/api-keys',
    {
      config,
      schema: {
        tags: ['api-keys'],
        params: workspaceParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(apiKeySchema) },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const { rows, total } = await keys.listApiKeys(ctx, tenantOf(request).workspaceId, limit, offset);
      return { data: rows.map(toApiKey), total, limit, offset };
    },
  );

  app.delete(
    '/api/workspaces/:workspaceId/api-keys/:keyId',
    {
      config,
      schema: { tags: ['api-keys'], params: keyParams, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await keys.revokeApiKey(ctx, tenantOf(request).workspaceId, request.params.keyId);
      return reply.status(204).send();
    },
  );
};
