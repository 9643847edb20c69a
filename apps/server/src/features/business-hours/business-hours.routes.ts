import { businessHoursBody, businessHoursData } from '@parley/contract/business-hours';
import { idParam } from '@parley/contract/envelope';
import { z } from 'zod';
import { badRequest } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import * as service from './business-hours.service.ts';

const url = '/api/workspaces/:workspaceId/business-hours';
const params = z.object({ workspaceId: idParam });
const tags = ['business-hours'];
const NO_BODY = 'A body is required: the business hours, or null to remove them';

/**
 * Business hours (docs/business-hours.md): every member reads them, owners and admins set them.
 * None set is always open (`{data: null}`); PUT replaces the whole setting, PUT null removes it.
 */
export const businessHoursRoutes: Feature = (app, ctx) => {
  app.get(
    url,
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params, response: { 200: businessHoursData } },
    },
    async (request) => {
      const row = await service.getBusinessHours(ctx, tenantOf(request).workspaceId);
      return { data: row ? service.toBusinessHours(row) : null };
    },
  );

  app.put(
    url,
    {
      config: { auth: 'user', permission: 'inbox.manage' },
      // Fastify reads a missing body as null: clearing the hours takes an explicit `null`.
      preValidation: async (request) => {
        if (request.body === undefined) throw badRequest('Validation failed', { _: NO_BODY });
      },
      schema: {
        tags,
        params,
        description:
          'Replaces the business hours; `null` removes them (always open). Every day of `week` is required, an empty list being a closed day.',
        body: businessHoursBody,
        response: { 200: businessHoursData },
      },
    },
    async (request) => {
      const row = await service.putBusinessHours(ctx, tenantOf(request).workspaceId, request.body);
      return { data: row ? service.toBusinessHours(row) : null };
    },
  );
};
