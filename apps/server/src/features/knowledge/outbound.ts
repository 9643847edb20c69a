import type { AppContext } from '../../context.ts';
import { type FetchOptions, type FetchResult, fetchOutbound } from '../../lib/outbound/fetch.ts';
import { checkOutboundUrl } from '../../lib/outbound/guard.ts';
import { USER_AGENT } from './ingestion/website.ts';

/** Knowledge fetches share the webhook guard's policy (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
export function outboundPolicy(ctx: AppContext): { allowPrivateNetworks: boolean } {
  return { allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks };
}

export function fetchForKnowledge(
  ctx: AppContext,
  url: string,
  opts: Partial<Pick<FetchOptions, 'headers' | 'maxBytes' | 'timeoutMs'>> = {},
): Promise<FetchResult> {
  return fetchOutbound(url, {
    ...outboundPolicy(ctx),
    timeoutMs: opts.timeoutMs ?? 15_000,
    maxBytes: opts.maxBytes ?? 5 * 1024 * 1024,
    headers: { 'user-agent': USER_AGENT, ...opts.headers },
  });
}

/**
 * Creation-time check of a source URL (the shared guard; websites may also be plain http, whose
 * host is checked the same way). The connect-time lookup checks again on every fetch.
 */
export async function checkSourceUrl(ctx: AppContext, raw: string): Promise<string | null> {
  const url = new URL(raw);
  if (url.protocol === 'http:') url.protocol = 'https:';
  return checkOutboundUrl(url.toString(), outboundPolicy(ctx));
}
