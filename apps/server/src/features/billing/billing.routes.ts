import {
  billingParams,
  billingSchema,
  cancelSchema,
  changeBody,
  changeSchema,
  checkoutBody,
  invoiceSchema,
} from '@parley/contract/billing';
import { dataOf, urlData } from '@parley/contract/envelope';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import * as billing from './billing.service.ts';
import { billingNotConfigured, stripeConfigured } from './stripe.ts';

const tags = ['billing'];
const url = urlData;

/**
 * The billing summary (any member) and the billing actions (owner only): docs/credits.md,
 * docs/billing.md "Stripe". The workspace is the one the tenant guard resolved (http/tenant.ts).
 * Without STRIPE_SECRET_KEY the actions answer 400 `billing_not_configured` after the role check
 * and before the body is looked at.
 */
export const billingRoutes: Feature = (app, ctx) => {
  const configured = {
    preValidation: async () => {
      if (!stripeConfigured(ctx.config)) throw billingNotConfigured();
    },
  };
  const owner = { auth: 'user', permission: 'billing.manage' } as const;

  app.get(
    '/api/workspaces/:workspaceId/billing',
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params: billingParams, response: { 200: dataOf(billingSchema) } },
    },
    async (request) => ({ data: await billing.billingSummary(ctx, tenantOf(request).workspaceId) }),
  );

  app.post(
    '/api/workspaces/:workspaceId/billing/checkout',
    {
      config: owner,
      ...configured,
      schema: { tags, params: billingParams, body: checkoutBody, response: { 200: url } },
    },
    async (request) => ({
      data: await billing.startCheckout(
        ctx,
        tenantOf(request).workspaceId,
        request.body.plan,
        publicBaseUrl(ctx, request.headers.host),
      ),
    }),
  );

  app.post(
    '/api/workspaces/:workspaceId/billing/portal',
    { config: owner, ...configured, schema: { tags, params: billingParams, response: { 200: url } } },
    async (request) => ({
      data: await billing.openPortal(
        ctx,
        tenantOf(request).workspaceId,
        publicBaseUrl(ctx, request.headers.host),
      ),
    }),
  );

  app.post(
    '/api/workspaces/:workspaceId/billing/cancel',
    {
      config: owner,
      ...configured,
      schema: {
        tags,
        params: billingParams,
        response: { 200: dataOf(cancelSchema) },
      },
    },
    async (request) => ({ data: await billing.cancel(ctx, tenantOf(request).workspaceId) }),
  );

  app.post(
    '/api/workspaces/:workspaceId/billing/change',
    {
      config: owner,
      ...configured,
      schema: {
        tags,
        params: billingParams,
        body: changeBody,
        response: { 200: dataOf(changeSchema) },
      },
    },
    async (request) => ({
      data: await billing.change(ctx, tenantOf(request).workspaceId, request.body.plan),
    }),
  );

  app.get(
    '/api/workspaces/:workspaceId/billing/invoices',
    {
      config: owner,
      ...configured,
      schema: { tags, params: billingParams, response: { 200: dataOf(z.array(invoiceSchema)) } },
    },
    async (request) => ({ data: await billing.listInvoices(ctx, tenantOf(request).workspaceId) }),
  );
};
