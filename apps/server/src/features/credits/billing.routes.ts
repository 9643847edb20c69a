import { dataOf } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { billingParams, billingSchema, checkoutBody } from './billing.schemas.ts';
import { billingSummary, startCheckout } from './billing.service.ts';

const tags = ['billing'];

/** The billing summary (any member) and checkout (owner only): docs/credits.md. */
export const billingRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/workspaces/:workspaceId/billing',
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params: billingParams, response: { 200: dataOf(billingSchema) } },
    },
    async (request) => ({ data: await billingSummary(ctx, request.params.workspaceId) }),
  );

  app.post(
    '/api/workspaces/:workspaceId/billing/checkout',
    {
      config: { auth: 'user', permission: 'billing.manage' },
      schema: { tags, params: billingParams, body: checkoutBody },
    },
    async (request) => startCheckout(ctx, request.params.workspaceId, request.body.plan),
  );
};
