import {
  contactListQuery,
  contactSchema,
  createContactBody,
  updateContactBody,
} from '@parley/contract/contacts';
import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage } from '@parley/contract/pagination';
import type { Scope } from '@parley/contract/scopes';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Permission } from '../../http/actor.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature, FeatureApp } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as service from './contacts.service.ts';

const errors = conflictResponse;

/** What differs between the two surfaces that serve contacts. */
export type ContactSurface = {
  base: string;
  tag: string;
  params: z.ZodObject;
  read: { auth: 'user' | 'key'; permission?: Permission };
  write: { auth: 'user' | 'key'; permission?: Permission; scope?: Scope; planFeature?: 'api_v1_write' };
  /** `source` of contacts created here. */
  source: string;
};

/**
 * Contacts (docs/contacts-and-tickets.md "Endpoints"): an offset list with filters, one, create,
 * change, delete. The same handlers serve the API-key surface (contacts.v1.routes.ts) and the
 * dashboard's workspace paths (below).
 */
export function registerContactRoutes(app: FeatureApp, ctx: AppContext, s: ContactSurface) {
  const one = s.params.extend({ contactId: idParam });
  app.get(
    s.base,
    {
      config: s.read,
      schema: {
        tags: [s.tag],
        params: s.params,
        querystring: contactListQuery,
        response: { 200: offsetPage(contactSchema) },
      },
    },
    async (request) => {
      const { limit, offset, email, phone, q, labelId } = request.query;
      const { rows, total } = await service.listContacts(
        ctx,
        tenantOf(request).workspaceId,
        { email, phone, q, labelId },
        { limit, offset },
      );
      return { data: rows.map(service.toContact), total, limit, offset };
    },
  );

  app.post(
    s.base,
    {
      config: s.write,
      schema: {
        tags: [s.tag],
        params: s.params,
        body: createContactBody,
        response: { 201: dataOf(contactSchema), ...errors },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await service.createContact(ctx, tenant, request.body, s.source);
      return reply.status(201).send({ data: service.toContact(row) });
    },
  );

  app.get(
    `${s.base}/:contactId`,
    {
      config: { ...s.read, resources: ['contact'] },
      schema: { tags: [s.tag], params: one, response: { 200: dataOf(contactSchema) } },
    },
    async (request) => ({ data: service.toContact(resourceOf(request, 'contact')) }),
  );

  app.patch(
    `${s.base}/:contactId`,
    {
      config: { ...s.write, resources: ['contact'] },
      schema: {
        tags: [s.tag],
        params: one,
        body: updateContactBody,
        response: { 200: dataOf(contactSchema), ...errors },
      },
    },
    async (request) => {
      const { id } = resourceOf(request, 'contact');
      const row = await service.updateContact(ctx, tenantOf(request).workspaceId, id, request.body);
      return { data: service.toContact(row) };
    },
  );

  app.delete(
    `${s.base}/:contactId`,
    {
      config: { ...s.write, resources: ['contact'] },
      schema: { tags: [s.tag], params: one, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await service.deleteContact(ctx, tenantOf(request).workspaceId, resourceOf(request, 'contact').id);
      return reply.status(204).send();
    },
  );
}

/**
 * The dashboard's contacts, under the workspace (cookie or personal token): every member reads,
 * members and above write (permission contacts.manage; docs/api.md "Roles and permissions").
 */
export const contactsRoutes: Feature = (app, ctx) =>
  registerContactRoutes(app, ctx, {
    base: '/api/workspaces/:workspaceId/contacts',
    tag: 'contacts',
    params: z.object({ workspaceId: idParam }),
    read: { auth: 'user', permission: 'workspace.view' },
    write: { auth: 'user', permission: 'contacts.manage' },
    source: 'dashboard',
  });
