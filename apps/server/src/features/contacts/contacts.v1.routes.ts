import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { registerContactRoutes } from './contacts.routes.ts';

/**
 * Contacts on the API-key surface (docs/api.md; docs/contacts-and-tickets.md "Endpoints"): any key
 * reads; writes need the plan feature `api_v1_write` and the scope `contacts:write`.
 */
export const contactsV1Routes: Feature = (app, ctx) =>
  registerContactRoutes(app, ctx, {
    base: '/api/v1/contacts',
    tag: 'v1',
    params: z.object({}),
    read: { auth: 'key' },
    write: { auth: 'key', scope: 'contacts:write', planFeature: 'api_v1_write' },
    source: 'api',
  });
