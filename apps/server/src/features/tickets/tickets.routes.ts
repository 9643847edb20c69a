import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage } from '@parley/contract/pagination';
import type { Scope } from '@parley/contract/scopes';
import { createTicketBody, ticketListQuery, ticketSchema, updateTicketBody } from '@parley/contract/tickets';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Permission } from '../../http/actor.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature, FeatureApp } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as service from './tickets.service.ts';

const errors = conflictResponse;

/** What differs between the two surfaces that serve tickets. */
export type TicketSurface = {
  base: string;
  tag: string;
  params: z.ZodObject;
  read: { auth: 'user' | 'key'; permission?: Permission };
  write: { auth: 'user' | 'key'; permission?: Permission; scope?: Scope; planFeature?: 'api_v1_write' };
};

/**
 * Tickets (docs/contacts-and-tickets.md "Endpoints"): an offset list with filters, one, create and
 * change; no delete (a ticket is closed instead). The same handlers serve the API-key surface
 * (tickets.v1.routes.ts) and the dashboard's workspace paths (below).
 */
export function registerTicketRoutes(app: FeatureApp, ctx: AppContext, s: TicketSurface) {
  const one = s.params.extend({ ticketId: idParam });
  app.get(
    s.base,
    {
      config: s.read,
      schema: {
        tags: [s.tag],
        params: s.params,
        querystring: ticketListQuery,
        response: { 200: offsetPage(ticketSchema) },
      },
    },
    async (request) => {
      const { limit, offset, unassigned, ...filter } = request.query;
      const { rows, total } = await service.listTickets(
        ctx,
        tenantOf(request).workspaceId,
        { ...filter, unassigned: unassigned === 'true' },
        { limit, offset },
      );
      return { data: rows.map(service.toTicket), total, limit, offset };
    },
  );

  app.post(
    s.base,
    {
      config: s.write,
      schema: {
        tags: [s.tag],
        params: s.params,
        body: createTicketBody,
        response: { 201: dataOf(ticketSchema) },
      },
    },
    async (request, reply) => {
      const row = await service.createTicket(ctx, tenantOf(request), request.body);
      return reply.status(201).send({ data: service.toTicket(row) });
    },
  );

  app.get(
    `${s.base}/:ticketId`,
    {
      config: { ...s.read, resources: ['ticket'] },
      schema: { tags: [s.tag], params: one, response: { 200: dataOf(ticketSchema) } },
    },
    async (request) => ({ data: service.toTicket(resourceOf(request, 'ticket')) }),
  );

  app.patch(
    `${s.base}/:ticketId`,
    {
      config: { ...s.write, resources: ['ticket'] },
      schema: {
        tags: [s.tag],
        params: one,
        body: updateTicketBody,
        response: { 200: dataOf(ticketSchema), ...errors },
      },
    },
    async (request) => {
      const { id } = resourceOf(request, 'ticket');
      const row = await service.updateTicket(ctx, tenantOf(request).workspaceId, id, request.body);
      return { data: service.toTicket(row) };
    },
  );
}

/**
 * The dashboard's tickets, under the workspace (cookie or personal token): every member reads,
 * members and above write (permission tickets.manage; docs/api.md "Roles and permissions").
 */
export const ticketsRoutes: Feature = (app, ctx) =>
  registerTicketRoutes(app, ctx, {
    base: '/api/workspaces/:workspaceId/tickets',
    tag: 'tickets',
    params: z.object({ workspaceId: idParam }),
    read: { auth: 'user', permission: 'workspace.view' },
    write: { auth: 'user', permission: 'tickets.manage' },
  });
