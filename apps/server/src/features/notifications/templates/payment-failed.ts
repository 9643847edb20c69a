import type { Notice } from './types.ts';

/** `payment.failed`: Stripe could not charge the workspace (docs/billing.md "Stripe webhooks"). */
export function paymentFailedNotice(ws: { name: string }): Notice {
  return {
    type: 'payment.failed',
    title: `${ws.name}: a payment failed`,
    body:
      `The latest payment for ${ws.name} did not go through. Update the payment method in the billing ` +
      'portal; the plan stays as it is while Stripe retries the payment.',
  };
}
