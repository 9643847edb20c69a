import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  createWorkspaceBody,
  transferBody,
  updateWorkspaceBody,
  workspaceDetailSchema,
  workspaceSchema,
  wsParams,
} from '@parley/contract/workspaces';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import { invitationsRoutes } from './invitations.routes.ts';
import { membersRoutes } from './members.routes.ts';
import { errors, roleOf } from './routes.common.ts';
import * as workspaces from './workspaces.service.ts';

const tags = ['workspaces'];
const detail = dataOf(workspaceDetailSchema);

/** docs/workspaces.md "Workspaces"; bearer = personal access token or cookie. */
const workspaceRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/workspaces',
    {
      config: { auth: 'user' },
      schema: { tags, body: createWorkspaceBody, response: { 201: detail, ...errors } },
    },
    async (request, reply) => {
      const ws = await workspaces.createWorkspace(ctx, userIdOf(request), request.body);
      return reply.status(201).send({ data: ws });
    },
  );

  app.get(
    '/api/workspaces',
    {
      config: { auth: 'user' },
      schema: { tags, querystring: offsetQuery, response: { 200: offsetPage(workspaceSchema), ...errors } },
    },
    async (request) =>
      workspaces.listWorkspaces(ctx, userIdOf(request), request.query.limit, request.query.offset),
  );

  app.get(
    '/api/workspaces/:workspaceId',
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params: wsParams, response: { 200: detail, ...errors } },
    },
    async (request) => ({
      data: await workspaces.getWorkspace(ctx, tenantOf(request).workspaceId, roleOf(request)),
    }),
  );

  app.patch(
    '/api/workspaces/:workspaceId',
    {
      config: { auth: 'user', permission: 'workspace.update' },
      schema: { tags, params: wsParams, body: updateWorkspaceBody, response: { 200: detail, ...errors } },
    },
    async (request) => ({
      data: await workspaces.updateWorkspace(
        ctx,
        tenantOf(request).workspaceId,
        roleOf(request),
        request.body,
      ),
    }),
  );

  app.delete(
    '/api/workspaces/:workspaceId',
    {
      config: { auth: 'user', permission: 'workspace.delete' },
      schema: { tags, params: wsParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      await workspaces.deleteWorkspace(ctx, tenantOf(request).workspaceId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/workspaces/:workspaceId/transfer-ownership',
    {
      config: { auth: 'user', permission: 'workspace.transfer' },
      schema: { tags, params: wsParams, body: transferBody, response: { 200: detail, ...errors } },
    },
    async (request) => ({
      data: await workspaces.transferOwnership(
        ctx,
        tenantOf(request).workspaceId,
        userIdOf(request),
        request.body.userId,
      ),
    }),
  );
};

/** One entry for features/index.ts: workspaces, their members and invitations. */
export const workspacesFeature: Feature = async (app, ctx) => {
  await workspaceRoutes(app, ctx);
  await membersRoutes(app, ctx);
  await invitationsRoutes(app, ctx);
};
