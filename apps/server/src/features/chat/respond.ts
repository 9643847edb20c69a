import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { isDatabaseUnavailable } from '../../db/client.ts';
import { openEventStream } from '../../http/sse.ts';
import { trackStream } from '../../lib/metrics.ts';
import { runReply } from './engine.ts';
import { failureEvent } from './stream-events.ts';
import type { Turn } from './turn.ts';

/**
 * Streams a begun turn as server-sent events (docs/chat.md "Stream events"), for every surface that
 * chats over HTTP: internal chat now, the widget next. `headers` adds e.g. `X-Conversation-Id`
 * or CORS. In `handoff` the stream carries only `finish` with a null message id (docs/chat.md "Handoff").
 */
export async function streamTurn(
  ctx: AppContext,
  reply: FastifyReply,
  turn: Turn,
  headers: Record<string, string>,
  log: FastifyBaseLogger,
): Promise<void> {
  // The chat counts as started (lib/admission.ts) once its own work is done: the turn stored (when
  // beginTurn returned), its context and history read; the model's time to answer never counts.
  const started = reply.request.chatStarted;
  if (started && turn.kind === 'reply') void Promise.allSettled([turn.context, turn.history]).then(started);
  else started?.();
  const stream = openEventStream(reply, headers, ctx.config.ai.keepAliveMs, { headersWithFirstEvent: true });
  const surface = reply.request.url.startsWith('/api/widget/') ? 'widget' : 'chat';
  trackStream(ctx.metrics, 'chat', stream);
  let first = true;
  const send: typeof stream.send = (event) => {
    if (first) ctx.metrics.chatFirstEvent.observe({ surface }, reply.elapsedTime / 1000);
    first = false;
    stream.send(event);
  };
  try {
    if (turn.kind === 'handoff') {
      send({ type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } });
      return;
    }
    await runReply(ctx, turn, send, stream.signal, log);
  } catch (err) {
    // The stream has started: a failure can only be told as an `error` event (docs/chat.md "Stream
    // events"); the database out of reach is not a bug, and the client retries shortly.
    const unavailable = isDatabaseUnavailable(err);
    if (unavailable)
      log.warn({ err, conversationId: turn.conversation.id }, 'chat reply failed: database unavailable');
    else log.error({ err, conversationId: turn.conversation.id }, 'chat reply failed');
    send(
      failureEvent(err, {
        type: 'error',
        error: 'Something went wrong; please try again.',
        code: 'internal_server_error:api',
      }),
    );
  } finally {
    stream.end();
    ctx.metrics.chatDuration.observe({ surface }, reply.elapsedTime / 1000);
  }
}
