import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { openEventStream } from '../../http/sse.ts';
import { inboxChannel } from '../conversations/conversations.service.ts';

/** One encoding per published change, shared by every inbox stream of the app that receives it. */
function encode(ctx: AppContext, payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const encoded = ctx.streamEncodings.inbox;
  let json = encoded.get(payload);
  if (json === undefined) {
    json = JSON.stringify(payload);
    encoded.set(payload, json);
  }
  return json;
}

/**
 * `GET /api/inbox/stream` (docs/inbox.md "Live updates"): every change published on the
 * workspace's inbox channel, from any process (lib/fanout.ts), as one `data:` line each. `ready`
 * comes first, once changes will arrive; what happened while disconnected is in the listing.
 */
export async function openInboxStream(ctx: AppContext, reply: FastifyReply, workspaceId: string) {
  const stream = openEventStream(reply, {}, ctx.config.ai.keepAliveMs);
  let off: (() => void) | undefined;
  let closed = false;
  stream.onClose(() => {
    closed = true;
    off?.();
  });
  const unsubscribe = await ctx.fanout.subscribe(inboxChannel(workspaceId), (payload) => {
    const json = encode(ctx, payload);
    if (json) stream.sendEncoded(json);
  });
  if (closed) unsubscribe();
  else {
    off = unsubscribe;
    stream.send({ type: 'ready' });
  }
}
