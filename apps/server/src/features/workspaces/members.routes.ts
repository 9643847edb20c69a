import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  availabilityBody,
  memberParams,
  memberSchema,
  updateMemberBody,
  wsParams,
} from '@parley/contract/workspaces';
import { z } from 'zod';
import { can } from '../../http/actor.ts';
import { userIdOf } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import * as members from './members.service.ts';
import { errors, roleOf } from './routes.common.ts';

const tags = ['members'];

/** docs/workspaces.md "Members": any member lists; owners and admins manage; anyone leaves. */
export const membersRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/workspaces/:workspaceId/members',
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: {
        tags,
        params: wsParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(memberSchema), ...errors },
      },
    },
    async (request) =>
      members.listMembers(ctx, tenantOf(request).workspaceId, request.query.limit, request.query.offset),
  );

  // Those who answer conversations say whether they take them now; a guest answers none.
  app.put(
    '/api/workspaces/:workspaceId/members/me/availability',
    {
      config: { auth: 'user', permission: 'assistants.use' },
      schema: {
        tags,
        params: wsParams,
        body: availabilityBody,
        response: { 200: dataOf(availabilityBody), ...errors },
      },
    },
    async (request) => ({
      data: await members.setMyAvailability(
        ctx,
        tenantOf(request).workspaceId,
        userIdOf(request),
        request.body.status,
      ),
    }),
  );

  app.patch(
    '/api/workspaces/:workspaceId/members/:userId',
    {
      config: { auth: 'user', permission: 'members.manage', resources: ['member'] },
      schema: {
        tags,
        params: memberParams,
        body: updateMemberBody,
        response: { 200: dataOf(memberSchema), ...errors },
      },
    },
    async (request) => {
      const caller = { userId: userIdOf(request), role: roleOf(request) };
      const { workspaceId } = tenantOf(request);
      return {
        data: await members.changeRole(ctx, workspaceId, caller, request.params.userId, request.body.role),
      };
    },
  );

  app.delete(
    '/api/workspaces/:workspaceId/members/:userId',
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params: memberParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      const caller = { userId: userIdOf(request), role: roleOf(request) };
      // Anyone may leave; removing someone else takes members.manage (docs/workspaces.md).
      if (request.params.userId !== caller.userId && !can(caller.role, 'members.manage')) {
        throw forbidden('Only owners and admins can remove members');
      }
      await members.removeMember(ctx, tenantOf(request).workspaceId, caller, request.params.userId);
      return reply.status(204).send();
    },
  );
};
