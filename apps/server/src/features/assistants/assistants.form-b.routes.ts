import {
  connectBody,
  connectedProject,
  formBAssistant,
  formBCreateBody,
  formBListItem,
  formBPatchBody,
} from '@parley/contract/assistants-form-b';
import { dataOf } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../http/auth.ts';
import { conflictResponse, iso } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import * as projects from '../knowledge/projects/projects.service.ts';
import { widgetEnabledMap } from '../widget/widget-config.service.ts';
import type { AssistantRow } from './assistants.repo.ts';
import { toAssistant } from './assistants.serialize.ts';
import * as svc from './assistants.service.ts';

const errors = conflictResponse;
const wsParams = z.object({ workspaceId: z.string().min(1).max(100) });
const aParams = wsParams.extend({ assistantId: z.string().min(1).max(100) });
const pParams = aParams.extend({ projectId: z.string().min(1).max(100) });
const base = '/api/workspaces/:workspaceId/assistants';
const tags = ['assistants (Form B)'];
const list = { auth: 'user', permission: 'workspace.view' } as const;
const create = { auth: 'user', permission: 'assistants.manage' } as const;
const read = { ...list, resources: ['assistant'] } as const;
const manage = { ...create, resources: ['assistant'] } as const;

async function withFormB(ctx: AppContext, rows: AssistantRow[]) {
  const ids = rows.map((r) => r.id);
  const [widget, counts] = await Promise.all([
    widgetEnabledMap(ctx, ids),
    projects.projectCountMap(ctx, ids),
  ]);
  return rows.map((r) => ({
    ...toAssistant(r),
    widgetEnabled: widget.get(r.id) ?? false,
    projectCount: counts.get(r.id) ?? 0,
  }));
}
const one = async (ctx: AppContext, row: AssistantRow) => (await withFormB(ctx, [row]))[0]!;

/** Form B assistants (docs/assistants.md): the same assistant record at workspace-scoped paths. */
export const assistantsFormBRoutes: Feature = (app, ctx) => {
  app.get(
    base,
    {
      config: list,
      schema: {
        tags,
        params: wsParams,
        querystring: offsetQuery,
        response: { 200: offsetPage(formBListItem), ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await svc.listAssistants(
        ctx,
        actorOf(request),
        tenantOf(request),
        request.query,
      );
      const data = (await withFormB(ctx, rows)).map((a) => ({
        id: a.id,
        name: a.name,
        model: a.model,
        visibility: a.visibility,
        widgetEnabled: a.widgetEnabled,
        projectCount: a.projectCount,
        createdAt: a.createdAt,
      }));
      return { data, total, limit: request.query.limit, offset: request.query.offset };
    },
  );

  app.post(
    base,
    {
      config: create,
      schema: {
        tags,
        params: wsParams,
        body: formBCreateBody,
        response: { 201: dataOf(formBAssistant), ...errors },
      },
    },
    async (request, reply) => {
      const row = await svc.createAssistant(ctx, actorOf(request), tenantOf(request), request.body);
      return reply.status(201).send({ data: await one(ctx, row) });
    },
  );

  app.get(
    `${base}/:assistantId`,
    { config: read, schema: { tags, params: aParams, response: { 200: dataOf(formBAssistant), ...errors } } },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: await one(ctx, row) };
    },
  );

  app.patch(
    `${base}/:assistantId`,
    {
      config: manage,
      schema: {
        tags,
        params: aParams,
        body: formBPatchBody,
        response: { 200: dataOf(formBAssistant), ...errors },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: await one(ctx, await svc.updateAssistant(ctx, row, request.body)) };
    },
  );

  app.delete(
    `${base}/:assistantId`,
    { config: manage, schema: { tags, params: aParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const { row } = resourceOf(request, 'assistant');
      await svc.deleteAssistant(ctx, row);
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/:assistantId/projects`,
    {
      config: read,
      schema: {
        tags,
        params: aParams,
        response: { 200: z.object({ data: z.array(connectedProject) }), ...errors },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const list = await projects.listConnected(ctx, row.id);
      return {
        data: list.map((p) => ({
          ...p,
          documentCount: Number(p.documentCount),
          connectedAt: iso(p.connectedAt),
        })),
      };
    },
  );

  app.post(
    `${base}/:assistantId/projects`,
    {
      config: manage,
      schema: {
        tags,
        params: aParams,
        body: connectBody,
        response: { 201: dataOf(connectedProject), ...errors },
      },
    },
    async (request, reply) => {
      const { row } = resourceOf(request, 'assistant');
      await projects.connect(ctx, tenantOf(request).workspaceId, row.id, request.body.projectId);
      const connected = (await projects.listConnected(ctx, row.id)).find(
        (p) => p.id === request.body.projectId,
      )!;
      return reply.status(201).send({
        data: {
          ...connected,
          documentCount: Number(connected.documentCount),
          connectedAt: iso(connected.connectedAt),
        },
      });
    },
  );

  app.delete(
    `${base}/:assistantId/projects/:projectId`,
    { config: manage, schema: { tags, params: pParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const { row } = resourceOf(request, 'assistant');
      await projects.disconnect(ctx, row.id, request.params.projectId);
      return reply.status(204).send();
    },
  );
};
