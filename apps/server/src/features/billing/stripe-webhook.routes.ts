import type Stripe from 'stripe';
import { z } from 'zod';
import { AppError, badRequest } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { billingNotConfigured, stripeOf } from './stripe.ts';
import { handleStripeEvent } from './stripe-events.ts';

/** Stripe's payloads are small; anything larger is not from Stripe. */
const LIMIT_BYTES = 512 * 1024;

/**
 * `POST /api/billing/stripe/webhook` (docs/billing.md "Stripe webhooks"): the raw body is checked
 * against `Stripe-Signature` with STRIPE_WEBHOOK_SECRET before anything is read; a forged or
 * stale signature is 400 and changes nothing. Its own scope, for the raw-body parser.
 */
export const stripeWebhookRoutes: Feature = (app, ctx) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/billing/stripe/webhook',
    {
      config: { auth: 'none' },
      bodyLimit: LIMIT_BYTES,
      schema: {
        tags: ['billing'],
        summary: "Stripe's signed webhooks",
        description:
          'Signed with STRIPE_WEBHOOK_SECRET (`Stripe-Signature`). Each event id is applied once; a replay answers 200 and changes nothing. 400 for a missing or wrong signature, 400 `billing_not_configured` without Stripe.',
        response: { 200: z.object({ received: z.literal(true), result: z.string() }) },
      },
    },
    async (request) => {
      const secret = ctx.config.stripe.webhookSecret;
      const stripe = stripeOf(ctx);
      if (!secret) throw billingNotConfigured();
      const signature = request.headers['stripe-signature'];
      const raw = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) {
        throw badRequest('A signed Stripe event is expected', { 'stripe-signature': 'Required' });
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(raw, signature, secret);
      } catch {
        request.log.warn('stripe webhook refused: invalid signature');
        throw badRequest('The Stripe signature is not valid', { 'stripe-signature': 'Invalid' });
      }
      try {
        const result = await handleStripeEvent(ctx, event);
        request.log.info({ stripeEvent: event.id, type: event.type, result }, 'stripe event');
        return { received: true as const, result };
      } catch (err) {
        if (err instanceof AppError) throw err;
        // Stripe retries on a non-2xx: a failed fetch of the subscription is tried again later.
        request.log.error({ err, stripeEvent: event.id }, 'stripe event failed');
        throw err;
      }
    },
  );
};
