import { dataOf } from '@parley/contract/envelope';
import { keyWorkspaceSchema } from '@parley/contract/workspaces';
import { actorOf } from '../../http/auth.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import { keyWorkspace } from './workspaces.service.ts';

/**
 * The workspace on the API-key surface (docs/api.md). Every /api/v1 route lives in its feature as
 * `<domain>.v1.routes.ts` with `config.auth: 'key'` (the key names the workspace).
 */
export const workspaceV1Routes: Feature = (app, ctx) => {
  app.get(
    '/api/v1/workspace',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['v1'],
        response: { 200: dataOf(keyWorkspaceSchema) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const scopes = actor.kind === 'apiKey' ? actor.scopes : [];
      return { data: await keyWorkspace(ctx, tenantOf(request), scopes) };
    },
  );
};
