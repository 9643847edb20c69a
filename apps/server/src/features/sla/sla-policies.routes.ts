import { dataOf, idParam } from '@parley/contract/envelope';
import { createSlaPolicyBody, slaPolicySchema, updateSlaPolicyBody } from '@parley/contract/sla';
import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as service from './sla-policies.service.ts';

const base = '/api/workspaces/:workspaceId/sla-policies';
const params = z.object({ workspaceId: idParam });
const one = params.extend({ policyId: idParam });
const tags = ['sla'];
const read = { auth: 'user', permission: 'workspace.view' } as const;
const write = { auth: 'user', permission: 'inbox.manage', planFeature: 'sla' } as const;

/**
 * SLA policies (docs/sla.md "Policies"): every member reads them on every plan; owners and admins
 * write them on Pro and Enterprise (a Free workspace's write is a 403 `plan_upgrade_required`).
 */
export const slaPoliciesRoutes: Feature = (app, ctx) => {
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        params,
        description: "By priority, then the oldest first: the order a conversation's policy is chosen in.",
        response: { 200: z.object({ data: z.array(slaPolicySchema) }) },
      },
    },
    async (request) => ({
      data: (await service.listSlaPolicies(ctx, tenantOf(request).workspaceId)).map(service.toSlaPolicy),
    }),
  );

  app.post(
    base,
    {
      config: write,
      schema: { tags, params, body: createSlaPolicyBody, response: { 201: dataOf(slaPolicySchema) } },
    },
    async (request, reply) => {
      const row = await service.createSlaPolicy(ctx, tenantOf(request).workspaceId, request.body);
      return reply.status(201).send({ data: service.toSlaPolicy(row) });
    },
  );

  app.patch(
    `${base}/:policyId`,
    {
      config: { ...write, resources: ['slaPolicy'] },
      schema: { tags, params: one, body: updateSlaPolicyBody, response: { 200: dataOf(slaPolicySchema) } },
    },
    async (request) => {
      const { id } = resourceOf(request, 'slaPolicy');
      const row = await service.updateSlaPolicy(ctx, tenantOf(request).workspaceId, id, request.body);
      return { data: service.toSlaPolicy(row) };
    },
  );

  app.delete(
    `${base}/:policyId`,
    {
      config: { ...write, resources: ['slaPolicy'] },
      schema: { tags, params: one, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await service.deleteSlaPolicy(ctx, tenantOf(request).workspaceId, resourceOf(request, 'slaPolicy').id);
      return reply.status(204).send();
    },
  );
};
