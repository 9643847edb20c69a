import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { registerTicketRoutes } from './tickets.routes.ts';

/**
 * Tickets on the API-key surface (docs/api.md; docs/contacts-and-tickets.md "Endpoints"): any key
 * reads; writes need the plan feature `api_v1_write` and the scope `tickets:write`.
 */
export const ticketsV1Routes: Feature = (app, ctx) =>
  registerTicketRoutes(app, ctx, {
    base: '/api/v1/tickets',
    tag: 'v1',
    params: z.object({}),
    read: { auth: 'key' },
    write: { auth: 'key', scope: 'tickets:write', planFeature: 'api_v1_write' },
  });
