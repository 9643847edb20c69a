import type { StreamEvent } from '@parley/contract/stream-events';
import { stepCountIs, streamText } from 'ai';
import type { AppContext } from '../../context.ts';
import type { ToolStep } from '../../db/schema/index.ts';
import { modelFor } from '../../providers/llm/index.ts';
import { knowledgeGapOf } from '../analytics/gaps.ts';
import {
  announceMessage,
  appendReplyWhile,
  conversationChannel,
} from '../conversations/conversations.service.ts';
import { afterHandoffTool } from '../conversations/handoff.ts';
import { refundCredit } from '../credits/credits.service.ts';
import { modelOutcome } from '../steering/outcome.ts';
import { steeredReply } from '../steering/steered-reply.ts';
import { decide, steeringFor } from '../steering/steering.cache.ts';
import { replyConfidence } from './confidence.ts';
import { PassageBook } from './passages.ts';
import { systemPrompt, toModelMessages } from './prompt.ts';
import { failureEvent, mapPart, messageOf } from './stream-events.ts';
import { buildTools } from './tools.ts';
import type { Turn } from './turn.ts';
import { withholdReply } from './withhold.ts';

export type ReplyOutcome = {
  messageId: string | null;
  /** `withdrawn`: a person took the conversation over first; nothing was stored or charged. */
  status: 'complete' | 'partial' | 'failed' | 'aborted' | 'withdrawn';
  text: string;
};

const MAX_STEPS = 4;

/**
 * Generates and stores the AI's reply to a turn begun by beginTurn (docs/chat.md),
 * sending the stream events of docs/chat.md through `emit`. Outcomes:
 * - complete: the message is stored with citations, tool steps and usage; `finish` carries its id;
 * - the model fails before any text: the credit is refunded, nothing is stored, `error` is sent;
 * - it fails after some text: what was generated is stored as `partial`, then `error`;
 * - the client goes away (`signal`): the model call is aborted and what was generated is stored.
 */
export async function runReply(
  ctx: AppContext,
  turn: Extract<Turn, { kind: 'reply' }>,
  emit: (event: StreamEvent) => void,
  signal: AbortSignal,
  log?: { warn(obj: object, msg: string): void },
): Promise<ReplyOutcome> {
  const { assistant, conversation } = turn;
  // Guidance rules and curated answers first, before any model call (docs/steering.md "Order").
  const steering = await steeringFor(ctx, assistant);
  const decision = decide(steering, turn.userMessage.content);
  if (decision.kind !== 'model') return steeredReply(ctx, turn, decision, emit, signal);
  const book = new PassageBook();
  let text = '';
  const steps = new Map<string, ToolStep>();
  const usage = { promptTokens: 0, completionTokens: 0 };
  let failure: unknown;
  // A person taking over mid-reply stops the model (docs/inbox.md "No message lost"); the store
  // below refuses the reply anyway, this only saves the rest of the generation.
  const takenOver = new AbortController();
  let handedOff = false;
  const watch = watchTakeover(ctx, conversation.id, () => {
    if (!handedOff) takenOver.abort(new Error('taken over'));
  });
  const abort = AbortSignal.any([signal, takenOver.signal, AbortSignal.timeout(ctx.config.ai.timeoutMs)]);
  // With a minimum confidence, nothing of the reply leaves before it is judged whole
  // (docs/measuring.md "Confidence"): the events wait here, then go out, or a handoff does.
  const gated = assistant.minConfidence > 0;
  const held: StreamEvent[] = [];
  const send = (e: StreamEvent) => (gated ? held.push(e) : emit(e));

  try {
    const [{ chunks, realtime }, history] = await Promise.all([turn.context, turn.history]);
    book.add(chunks);
    const result = streamText({
      model: modelFor(ctx.config.ai, { passages: book.passages, language: conversation.language }),
      system: systemPrompt(assistant, book.passages, steering.rules, conversation.language),
      messages: toModelMessages(history),
      tools: buildTools({
        ctx,
        assistant,
        conversation,
        plan: turn.plan,
        book,
        realtime,
        onHandoff: () => {
          handedOff = true;
        },
      }),
      stopWhen: stepCountIs(MAX_STEPS),
      temperature: assistant.temperature,
      maxOutputTokens: assistant.maxTokens,
      maxRetries: 0,
      abortSignal: abort,
      // Failures arrive as `error` parts below; the SDK's default would also print them.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      const mapped = mapPart(part);
      if (mapped.kind === 'event') {
        const e = mapped.event;
        if (e.type === 'text-delta') text += e.textDelta;
        if (e.type === 'tool-call')
          steps.set(e.toolCallId, { toolCallId: e.toolCallId, toolName: e.toolName, args: e.args });
        if (e.type === 'tool-result') {
          const step = steps.get(e.toolCallId);
          if (step) step.result = e.result;
        }
        send(e);
      } else if (mapped.kind === 'usage') {
        usage.promptTokens = mapped.promptTokens;
        usage.completionTokens = mapped.completionTokens;
      } else if (mapped.kind === 'failure') {
        failure = mapped.error;
        break;
      } else if (mapped.kind === 'abort') {
        break;
      }
    }
  } catch (err) {
    failure = err;
  } finally {
    watch.stop();
  }

  const clientGone = signal.aborted;
  const flush = () => {
    for (const e of held.splice(0)) if (!clientGone) emit(e);
  };
  if (takenOver.signal.aborted && !handedOff) failure = undefined;
  else if (failure === undefined && abort.aborted && !clientGone)
    failure = new Error('The model took too long to answer');
  if (failure !== undefined && !clientGone) {
    log?.warn({ err: messageOf(failure), assistantId: assistant.id }, 'model call failed');
  }
  if (text === '' && (failure !== undefined || clientGone || takenOver.signal.aborted)) {
    if (takenOver.signal.aborted && !handedOff) return withdrawn(ctx, turn, emit, clientGone, text);
    flush();
    // Failed before any text: the credit goes back (docs/credits.md "What a credit is"). A client that
    // left before the first word keeps the charge only if the model did not fail.
    if (failure !== undefined) await refundCredit(ctx, turn.reservation);
    if (!clientGone) emit(failureEvent(failure, modelError()));
    return { messageId: null, status: clientGone ? 'aborted' : 'failed', text };
  }

  const status: 'partial' | 'complete' = failure !== undefined || clientGone ? 'partial' : 'complete';
  // The customer asked for a person outside business hours: the reply ends with when one is back,
  // on every channel (docs/business-hours.md "The message").
  const modelText = text;
  const after = handedOff ? await afterHandoffTool(ctx, conversation.workspaceId, text) : null;
  if (after) {
    text += after;
    if (!clientGone) send({ type: 'text-delta', textDelta: after });
  }
  // The text has been sent: storing it is background work, after the chats still waiting for
  // their first event (lib/lanes.ts). `finish` follows the stored message, so it carries its id.
  // Stored only while the AI still holds the conversation (or this reply handed it over): a reply
  // racing a person's takeover either lands before it or not at all (docs/inbox.md "No message lost").
  const reply = {
    role: 'assistant' as const,
    content: text,
    status: takenOver.signal.aborted ? ('partial' as const) : status,
    citations: book.citedBy(modelText),
    toolCalls: [...steps.values()],
    usage,
    outcome: modelOutcome(handedOff, text),
  };
  const confidence = replyConfidence({
    ...reply,
    question: turn.userMessage.content,
    passages: book.passages,
  });
  // Whether the knowledge held no answer, decided now: docs/analytics.md "Knowledge gaps".
  const gapQuestion = knowledgeGapOf({ ...reply, question: turn.userMessage.content });
  if (gated && status === 'complete' && !takenOver.signal.aborted && confidence !== null) {
    if (confidence < assistant.minConfidence) {
      const draft = { ...reply, confidence, gapQuestion };
      const withheld = await withholdReply(ctx, turn, draft, emit, clientGone);
      return withheld ?? withdrawn(ctx, turn, emit, clientGone, text);
    }
  }
  flush();
  const message = await ctx.lanes.background(() =>
    appendReplyWhile(
      ctx.db,
      conversation,
      { ...reply, confidence, gapQuestion },
      handedOff ? ['open', 'handoff'] : ['open'],
    ),
  );
  if (!message) return withdrawn(ctx, turn, emit, clientGone, text);
  void announceMessage(ctx, conversation, message);
  if (failure !== undefined) emit(failureEvent(failure, modelError()));
  else if (!clientGone) emit({ type: 'finish', messageId: message.id, usage });
  return { messageId: message.id, status, text };
}

/**
 * A person took the conversation over before the reply was stored: nothing is stored, the credit
 * goes back, and the stream ends as a handed-off turn's does, `finish` with a null message id and
 * zero usage (docs/inbox.md "No message lost"); a client that saw text drops it.
 */
async function withdrawn(
  ctx: AppContext,
  turn: Extract<Turn, { kind: 'reply' }>,
  emit: (event: StreamEvent) => void,
  clientGone: boolean,
  text: string,
): Promise<ReplyOutcome> {
  await refundCredit(ctx, turn.reservation);
  if (!clientGone) emit({ type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } });
  return { messageId: null, status: 'withdrawn', text };
}

/** Listens on the conversation's live channel for a change away from `open` while a reply runs. */
function watchTakeover(ctx: AppContext, conversationId: string, onTakeover: () => void) {
  let off: (() => void) | undefined;
  let stopped = false;
  void ctx.fanout
    .subscribe(conversationChannel(conversationId), (payload) => {
      const p = payload as { type?: string; status?: string };
      if (p.type === 'status' && p.status !== 'open') onTakeover();
    })
    .then(
      (unsubscribe) => {
        if (stopped) unsubscribe();
        else off = unsubscribe;
      },
      () => undefined,
    );
  return {
    stop() {
      stopped = true;
      off?.();
    },
  };
}

const modelError = (): StreamEvent => ({
  type: 'error',
  error: 'The assistant could not finish its answer. Please try again.',
  code: 'internal_server_error:api',
});
