import type { StreamEvent } from '@parley/contract/stream-events';
import type { AppContext } from '../../context.ts';
import {
  announceMessage,
  appendReplyWhile,
  type NewMessage,
} from '../conversations/conversations.service.ts';
import { handoffNotice, requestHandoff } from '../conversations/handoff.ts';
import type { ReplyOutcome } from './engine.ts';
import type { Turn } from './turn.ts';

/**
 * A reply below the assistant's minimum confidence (docs/measuring.md "Confidence"): the draft is
 * stored `withheld` (only the inbox lists it; no channel sends it and no `message.created` goes
 * out for it), the conversation is handed to a person with reason `low_confidence`, and the
 * customer is told a person will answer (outside business hours: when one is back), on their
 * channel, as a handoff rule's notice. The model ran, so the turn's credit is kept. null: a person
 * took the conversation over first (the caller withdraws the turn).
 */
export async function withholdReply(
  ctx: AppContext,
  turn: Extract<Turn, { kind: 'reply' }>,
  draft: NewMessage & { confidence: number },
  emit: (event: StreamEvent) => void,
  clientGone: boolean,
): Promise<ReplyOutcome | null> {
  const { conversation, assistant } = turn;
  const held = await ctx.lanes.background(() =>
    appendReplyWhile(ctx.db, conversation, { ...draft, withheld: true }, ['open']),
  );
  if (!held) return null;
  void announceMessage(ctx, conversation, held);
  const handedOver = await requestHandoff(ctx, conversation, '', {
    kind: 'low_confidence',
    confidence: draft.confidence,
    minConfidence: assistant.minConfidence,
  });
  const text = await handoffNotice(ctx, conversation.workspaceId, conversation.language);
  const notice = await appendReplyWhile(
    ctx.db,
    handedOver ?? conversation,
    { role: 'assistant', content: text, usage: ZERO, outcome: 'handoff' },
    ['handoff'],
  );
  if (!notice) {
    // A person answered in between: the draft waits for them in the inbox; the customer hears nothing more.
    if (!clientGone) emit({ type: 'finish', messageId: null, usage: ZERO });
    return { messageId: null, status: 'withdrawn', text: '' };
  }
  void announceMessage(ctx, handedOver ?? conversation, notice);
  if (!clientGone) {
    emit({ type: 'text-delta', textDelta: text });
    emit({ type: 'finish', messageId: notice.id, usage: draft.usage ?? ZERO });
  }
  return { messageId: notice.id, status: 'complete', text };
}

const ZERO = { promptTokens: 0, completionTokens: 0 };
