import type { AppContext } from '../../context.ts';
import { type FetchOptions, type FetchResult, fetchOutbound } from '../../lib/outbound/fetch.ts';
import { USER_AGENT } from './website.ts';

/** Knowledge fetches share the webhook guard's policy (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
export function outboundPolicy(ctx: AppContext): { allowPrivateNetworks: boolean } {
  const cfg = ctx.config as unknown as { webhooks?: { allowPrivateNetworks?: boolean } };
  return { allowPrivateNetworks: cfg.webhooks?.allowPrivateNetworks ?? false };
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
