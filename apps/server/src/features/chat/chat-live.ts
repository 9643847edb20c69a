import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { openEventStream } from '../../http/sse.ts';
import { conversationChannel } from '../conversations/conversations.service.ts';

type Published =
  | { type: 'message'; message: { role: string; authorId: string | null }; authorName?: string | null }
  | { type: 'status'; status: string; assigneeId: string | null; agent: unknown };

/** What the internal chat's own stream says of a published change; null: nothing for it. */
function toChatEvent(payload: Published): object | null {
  if (payload.type === 'message' && payload.message.role === 'agent') {
    const m = payload.message;
    return {
      type: 'message',
      message: { ...m, author: m.authorId ? { id: m.authorId, name: payload.authorName ?? null } : null },
    };
  }
  if (payload.type === 'status') {
    return { type: 'status', status: payload.status, assigneeId: payload.assigneeId, agent: payload.agent };
  }
  return null;
}

/**
 * `GET /api/chat/conversations/{id}/events` (docs/inbox.md "Live delivery"): while a person holds
 * one of the caller's internal chats, their replies and the conversation's status changes arrive
 * here as they happen, from any process. `ready` comes first; the history has what was missed.
 */
export async function openChatEvents(ctx: AppContext, reply: FastifyReply, conversationId: string) {
  const stream = openEventStream(reply, {}, ctx.config.ai.keepAliveMs);
  let off: (() => void) | undefined;
  let closed = false;
  stream.onClose(() => {
    closed = true;
    off?.();
  });
  const unsubscribe = await ctx.fanout.subscribe(conversationChannel(conversationId), (payload) => {
    const event = toChatEvent(payload as Published);
    if (event) stream.send(event);
  });
  if (closed) unsubscribe();
  else {
    off = unsubscribe;
    stream.send({ type: 'ready' });
  }
}
