import { aiAnalyticsQuery, aiAnalyticsSchema } from '@parley/contract/ai-analytics';
import {
  analyticsParams,
  channelsQuery,
  channelsSchema,
  gapsQuery,
  gapsSchema,
  overviewQuery,
  overviewSchema,
} from '@parley/contract/analytics';
import { dataOf } from '@parley/contract/envelope';
import {
  serviceAnalyticsQuery,
  serviceAnalyticsSchema,
  serviceCsvQuery,
} from '@parley/contract/service-analytics';
import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import { assistantResource } from '../assistants/assistants.resource.ts';
import { aiAnalytics } from './ai-analytics.service.ts';
import * as svc from './analytics.service.ts';
import { serviceAnalytics, serviceCsv } from './service-analytics.service.ts';

const tags = ['analytics'];
/**
 * Every member reads analytics, guests included: every role may view the workspace
 * (docs/api.md "Roles and permissions"), and the figures hold nothing a guest cannot already read
 * in the inbox. No plan gates them (docs/analytics.md "Who can see them").
 */
const read = { auth: 'user', permission: 'workspace.view' } as const;
const PERIOD_TEXT =
  '`period`: `7d`, `30d` or `90d` (default `30d`), whole UTC days up to now, today included.';

/** Workspace analytics (docs/analytics.md "Endpoints"). */
export const analyticsRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/workspaces/:workspaceId/analytics',
    {
      config: read,
      schema: {
        tags,
        description: `Conversations per day by channel, credits used per day, handoff rate, share resolved without a person, widget feedback. ${PERIOD_TEXT}`,
        params: analyticsParams,
        querystring: overviewQuery,
        response: { 200: dataOf(overviewSchema) },
      },
    },
    async (request) => ({
      data: await svc.overview(ctx, tenantOf(request).workspaceId, request.query.period),
    }),
  );

  app.get(
    '/api/workspaces/:workspaceId/analytics/knowledge-gaps',
    {
      config: read,
      schema: {
        tags,
        description: `The customer questions most often answered without a cited passage or a tool (the knowledge's gaps), most frequent first; \`limit\` 1 to 100 (default 20). ${PERIOD_TEXT}`,
        params: analyticsParams,
        querystring: gapsQuery,
        response: { 200: dataOf(gapsSchema) },
      },
    },
    async (request) => ({
      data: await svc.knowledgeGaps(
        ctx,
        tenantOf(request).workspaceId,
        request.query.period,
        request.query.limit,
      ),
    }),
  );

  app.get(
    '/api/workspaces/:workspaceId/analytics/ai',
    {
      config: read,
      schema: {
        tags,
        description: `How the AI did: conversations it took part in, those it resolved (settled 7 days after they ended) and those pending, handoffs by reason, and its replies by outcome; \`assistantId\` narrows them to one assistant (404 when it is not one the caller sees in the workspace). ${PERIOD_TEXT}`,
        params: analyticsParams,
        querystring: aiAnalyticsQuery,
        response: { 200: dataOf(aiAnalyticsSchema) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { period, assistantId } = request.query;
      // The same loader as an `:assistantId` path: another workspace's, or a private one the caller
      // may not see, is a 404 like a missing one.
      if (assistantId !== undefined) {
        const scope = { tenant, actor: request.actor, loaded: {} };
        if (!(await assistantResource.load(ctx, scope, assistantId))) throw assistantResource.notFound();
      }
      return { data: await aiAnalytics(ctx, tenant.workspaceId, period, assistantId) };
    },
  );

  app.get(
    '/api/workspaces/:workspaceId/analytics/service',
    {
      config: read,
      schema: {
        tags,
        description: `Satisfaction ratings (overall, by the person who held the conversation, by assistant), SLA policies met and breached, the median times from the handoff to a person's first reply and to closing, and per day the ratings and breaches. ${PERIOD_TEXT}`,
        params: analyticsParams,
        querystring: serviceAnalyticsQuery,
        response: { 200: dataOf(serviceAnalyticsSchema) },
      },
    },
    async (request) => ({
      data: await serviceAnalytics(ctx, tenantOf(request).workspaceId, request.query.period),
    }),
  );

  app.get(
    '/api/workspaces/:workspaceId/analytics/service/conversations.csv',
    {
      config: read,
      schema: {
        tags,
        description: `The conversations one figure of the service report counts, as CSV (\`figure\`: csat, sla_breached, sla_met, first_response or resolution), at most 10,000 rows. ${PERIOD_TEXT}`,
        params: analyticsParams,
        querystring: serviceCsvQuery,
        response: { 200: z.string().describe('text/csv') },
      },
    },
    async (request, reply) => {
      const { period, figure } = request.query;
      const csv = await serviceCsv(ctx, tenantOf(request).workspaceId, period, figure);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="service-${figure}-${period}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/api/analytics/channels',
    {
      // The same requirement and the same resolver (http/tenant.ts); only where the workspace is
      // named differs, as its URL does (docs/analytics.md "Endpoints": the session surface).
      config: { ...read, auth: 'session', workspace: 'input' },
      schema: {
        tags,
        description: `Message volume per channel (widget, chat, sms): messages of the period, inbound (the customer's) and outbound (the AI's and people's), and the conversations they belong to. ${PERIOD_TEXT}`,
        querystring: channelsQuery,
        response: { 200: dataOf(channelsSchema) },
      },
    },
    async (request) => ({
      data: await svc.channels(ctx, tenantOf(request).workspaceId, request.query.period),
    }),
  );
};
