import type { Plan } from '@parley/contract/plans';
import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The Stripe client (docs/billing.md "Stripe"), through Stripe's own library. STRIPE_API_BASE
 * points it elsewhere (a stand-in in tests, a proxy for self-hosters). Built once by bootstrap.ts
 * `createContext` and carried as `ctx.stripe`; null without STRIPE_SECRET_KEY.
 */
export function createStripe(config: Config): Stripe | null {
  const { secretKey, apiBase } = config.stripe;
  if (!secretKey) return null;
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    maxNetworkRetries: 1,
    timeout: 20_000,
    appInfo: { name: 'Parley' },
  });
}

export const billingNotConfigured = () =>
  new AppError(
    'billing_not_configured',
    'Online billing is not configured on this server; ask the operator to change the plan',
  );

export function stripeConfigured(config: Config): boolean {
  return !!config.stripe.secretKey;
}

/** The client, or 400 `billing_not_configured` without STRIPE_SECRET_KEY. */
export function stripeOf(ctx: AppContext): Stripe {
  if (!ctx.stripe) throw billingNotConfigured();
  return ctx.stripe;
}

/** The price configured for a paid plan, or undefined. */
export function priceOf(config: Config, plan: Plan): string | undefined {
  if (plan === 'pro') return config.stripe.prices.pro;
  if (plan === 'enterprise') return config.stripe.prices.enterprise;
  return undefined;
}

/** The plan a subscription is for: its metadata (set at checkout), else its price. */
export function planOfSubscription(config: Config, sub: Stripe.Subscription): Plan | undefined {
  const meta = sub.metadata?.plan;
  if (meta === 'pro' || meta === 'enterprise') return meta;
  const price = sub.items?.data?.[0]?.price?.id;
  if (price && price === config.stripe.prices.enterprise) return 'enterprise';
  if (price && price === config.stripe.prices.pro) return 'pro';
  return undefined;
}

/** The end of the subscription's current period (on its item in current API versions). */
export function periodEndOf(sub: Stripe.Subscription): Date | null {
  const item = sub.items?.data?.[0] as { current_period_end?: number } | undefined;
  const legacy = (sub as unknown as { current_period_end?: number }).current_period_end;
  const end = item?.current_period_end ?? legacy;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

export const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === 'string' ? v : (v?.id ?? null);
