import { z } from 'zod';
import type { Feature } from '../../app.ts';
import { userIdOf } from '../../http/auth.ts';
import { dataOf } from '../../http/envelope.ts';
import { offsetPage, offsetQuery } from '../../http/pagination.ts';
import { assertValid } from '../../http/validation.ts';
import * as members from './members.service.ts';
import { errors, roleOf } from './routes.common.ts';
import { memberParams, memberSchema, updateMemberBody, wsParams } from './workspaces.schemas.ts';

const tags = ['members'];

/** decisions §5: members of a workspace. Any member lists; owners and admins manage; anyone leaves. */
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
      members.listMembers(ctx, request.params.workspaceId, request.query.limit, request.query.offset),
  );

  app.patch(
    '/api/workspaces/:workspaceId/members/:userId',
    {
      config: { auth: 'user', permission: 'members.manage', deferValidation: true },
      schema: {
        tags,
        params: memberParams,
        body: updateMemberBody,
        response: { 200: dataOf(memberSchema), ...errors },
      },
    },
    async (request) => {
      const { workspaceId, userId } = request.params;
      // decisions §2 order: a missing member (404) wins over a bad body (400).
      await members.requireMember(ctx, workspaceId, userId);
      assertValid(request);
      const caller = { userId: userIdOf(request), role: roleOf(request) };
      return { data: await members.changeRole(ctx, workspaceId, caller, userId, request.body.role) };
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
      await members.removeMember(ctx, request.params.workspaceId, caller, request.params.userId);
      return reply.status(204).send();
    },
  );
};
