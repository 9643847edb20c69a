import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  acceptedSchema,
  createdInvitationSchema,
  createInvitationBody,
  invitationParams,
  invitationSchema,
  tokenParams,
  wsParams,
} from '@parley/contract/workspaces';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import * as invitations from './invitations.service.ts';
import { errors } from './routes.common.ts';

const tags = ['invitations'];

/** docs/workspaces.md "Invitations": managed by owners and admins; accepted by the invited email. */
export const invitationsRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/workspaces/:workspaceId/invitations',
    {
      config: { auth: 'user', permission: 'members.manage' },
      schema: {
        tags,
        params: wsParams,
        body: createInvitationBody,
        response: { 201: dataOf(createdInvitationSchema), ...errors },
      },
    },
    async (request, reply) => {
      // Invite links point at PUBLIC_BASE_URL, else at the origin this request came to.
      const baseUrl = ctx.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
      const created = await invitations.createInvitation(
        ctx,
        tenantOf(request).workspaceId,
        userIdOf(request),
        request.body,
        { baseUrl, onMailError: (err) => request.log.warn({ err }, 'invitation email not sent') },
      );
      return reply.status(201).send({ data: created });
    },
  );

  app.get(
    '/api/workspaces/:workspaceId/invitations',
    {
      config: { auth: 'user', permission: 'members.manage' },
      schema: {
        tags,
        params: wsParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(invitationSchema), ...errors },
      },
    },
    async (request) =>
      invitations.listInvitations(
        ctx,
        tenantOf(request).workspaceId,
        request.query.limit,
        request.query.offset,
      ),
  );

  app.delete(
    '/api/workspaces/:workspaceId/invitations/:invitationId',
    {
      config: { auth: 'user', permission: 'members.manage' },
      schema: { tags, params: invitationParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      await invitations.revokeInvitation(ctx, tenantOf(request).workspaceId, request.params.invitationId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      config: { auth: 'user' },
      schema: { tags, params: tokenParams, response: { 200: dataOf(acceptedSchema), ...errors } },
    },
    async (request) => ({
      data: await invitations.acceptInvitation(ctx, userIdOf(request), request.params.token),
    }),
  );
};
