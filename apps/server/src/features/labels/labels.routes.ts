import { dataOf, idParam } from '@parley/contract/envelope';
import { workspaceQuery } from '@parley/contract/inbox';
import {
  createLabelBody,
  labelRef,
  labelSchema,
  labelSetBody,
  updateLabelBody,
} from '@parley/contract/labels';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as service from './labels.service.ts';
import { setContactLabels, setConversationLabels } from './labels.sets.ts';

const base = '/api/workspaces/:workspaceId/labels';
const params = z.object({ workspaceId: idParam });
const one = params.extend({ labelId: idParam });
const tags = ['labels'];
const read = { auth: 'user', permission: 'workspace.view' } as const;
const write = { auth: 'user', permission: 'inbox.manage' } as const;
const setResponse = { 200: z.object({ data: z.array(labelRef) }) };

/**
 * Labels (docs/labels.md): every member reads them, owners and admins shape them; owners, admins
 * and members set them on conversations and contacts.
 */
export const labelsRoutes: Feature = (app, ctx) => {
  app.get(
    base,
    { config: read, schema: { tags, params, response: { 200: z.object({ data: z.array(labelSchema) }) } } },
    async (request) => ({
      data: (await service.listLabels(ctx, tenantOf(request).workspaceId)).map(service.toLabel),
    }),
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        params,
        body: createLabelBody,
        response: { 201: dataOf(labelSchema), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const row = await service.createLabel(ctx, tenantOf(request).workspaceId, request.body);
      return reply.status(201).send({ data: service.toLabel(row) });
    },
  );

  app.patch(
    `${base}/:labelId`,
    {
      config: { ...write, resources: ['label'] },
      schema: {
        tags,
        params: one,
        body: updateLabelBody,
        response: { 200: dataOf(labelSchema), ...conflictResponse },
      },
    },
    async (request) => {
      const { id } = resourceOf(request, 'label');
      return {
        data: service.toLabel(
          await service.updateLabel(ctx, tenantOf(request).workspaceId, id, request.body),
        ),
      };
    },
  );

  app.delete(
    `${base}/:labelId`,
    {
      config: { ...write, resources: ['label'] },
      schema: { tags, params: one, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await service.deleteLabel(ctx, tenantOf(request).workspaceId, resourceOf(request, 'label').id);
      return reply.status(204).send();
    },
  );

  app.put(
    '/api/inbox/conversations/:conversationId/labels',
    {
      config: { auth: 'session', resources: ['inboxConversation'], permission: 'assistants.use' },
      schema: {
        tags,
        description:
          'Replaces the conversation\'s labels (docs/labels.md "Sets"); another workspace\'s label: 400.',
        params: z.object({ conversationId: idParam }),
        querystring: workspaceQuery,
        body: labelSetBody,
        response: setResponse,
      },
    },
    async (request) => ({
      data: await setConversationLabels(
        ctx,
        resourceOf(request, 'inboxConversation'),
        request.body.labelIds,
        userIdOf(request),
      ),
    }),
  );

  app.put(
    '/api/workspaces/:workspaceId/contacts/:contactId/labels',
    {
      config: { auth: 'user', resources: ['contact'], permission: 'contacts.manage' },
      schema: {
        tags,
        description:
          'Replaces the contact\'s labels (docs/labels.md "Sets"); another workspace\'s label: 400.',
        params: params.extend({ contactId: idParam }),
        body: labelSetBody,
        response: setResponse,
      },
    },
    async (request) => ({
      data: await setContactLabels(ctx, resourceOf(request, 'contact'), request.body.labelIds),
    }),
  );
};
