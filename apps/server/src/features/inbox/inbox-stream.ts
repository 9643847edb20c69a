import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { openEventStream } from '../../http/sse.ts';
import { now } from '../../lib/clock.ts';
import { inboxChannel } from '../conversations/conversations.service.ts';
import { markInboxSeen } from '../workspaces/members.repo.ts';
import { assignSoon } from './auto-assign.ts';

/** How often an open inbox stream tells the database its member is still there. */
const PRESENCE_BEAT_MS = 60_000;

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
 * While the stream is open its member is present for auto-assignment: the time is stored at the
 * start, every minute, and at the end (docs/inbox.md "Auto-assignment"). A member who arrives may
 * take what waits. Best-effort: a failed write only makes them look absent sooner.
 */
function keepPresent(ctx: AppContext, workspaceId: string, userId: string) {
  const seen = () => markInboxSeen(ctx.db, workspaceId, userId, now()).catch(() => undefined);
  void seen().then(() => assignSoon(ctx, workspaceId));
  const beat = setInterval(seen, PRESENCE_BEAT_MS);
  beat.unref();
  return () => {
    clearInterval(beat);
    void seen();
  };
}

/**
 * `GET /api/inbox/stream` (docs/inbox.md "Live updates"): every change published on the
 * workspace's inbox channel, from any process (lib/fanout.ts), as one `data:` line each. `ready`
 * comes first, once changes will arrive; what happened while disconnected is in the listing.
 */
export async function openInboxStream(
  ctx: AppContext,
  reply: FastifyReply,
  workspaceId: string,
  userId: string,
) {
  const stream = openEventStream(reply, {}, ctx.config.ai.keepAliveMs);
  let off: (() => void) | undefined;
  let closed = false;
  const leave = keepPresent(ctx, workspaceId, userId);
  stream.onClose(() => {
    closed = true;
    off?.();
    leave();
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
