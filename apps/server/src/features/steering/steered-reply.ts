import type { StreamEvent } from '@parley/contract/stream-events';
import type { AppContext } from '../../context.ts';
import type { ReplyOutcome } from '../chat/engine.ts';
import type { Turn } from '../chat/turn.ts';
import { announceMessage, appendReplyWhile } from '../conversations/conversations.service.ts';
import { handoffNotice, requestHandoff } from '../conversations/handoff.ts';
import { refundCredit } from '../credits/credits.service.ts';
import type { SteeringDecision } from './steering.cache.ts';
import { countAnswerUse } from './steering.repo.ts';

/**
 * A turn answered by a guidance rule or a curated answer, without a model call (docs/steering.md
 * "Order"). A handoff rule hands the conversation over, gives the credit back and tells the
 * customer a person will answer (outside business hours: when one is back, handoff.ts); a refuse rule answers its text (outcome `declined`); a curated
 * answer answers verbatim (outcome `curated`, its use counted). The reply is stored and streamed
 * as a model's would be: one `text-delta`, then `finish` with its id.
 */
export async function steeredReply(
  ctx: AppContext,
  turn: Extract<Turn, { kind: 'reply' }>,
  decision: Exclude<SteeringDecision, { kind: 'model' }>,
  emit: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<ReplyOutcome> {
  const { conversation } = turn;
  const owner = { workspaceId: conversation.workspaceId, assistantId: conversation.assistantId };
  let text: string;
  let outcome: 'declined' | 'curated' | 'handoff';
  let curatedAnswerId: string | null = null;
  if (decision.kind === 'handoff') {
    await refundCredit(ctx, turn.reservation);
    await requestHandoff(ctx, conversation, '', { kind: 'rule', rule: decision.rule });
    text = await handoffNotice(ctx, conversation.workspaceId, conversation.language);
    outcome = 'handoff';
  } else if (decision.kind === 'refuse') {
    text = decision.rule.text;
    outcome = 'declined';
  } else {
    text = decision.answer.answer;
    outcome = 'curated';
    curatedAnswerId = decision.answer.id;
  }
  const message = await appendReplyWhile(
    ctx.db,
    conversation,
    {
      role: 'assistant',
      content: text,
      usage: { promptTokens: 0, completionTokens: 0 },
      outcome,
      curatedAnswerId,
      // The team's own words (a curated answer, a refuse rule) are fully supported; the handoff
      // notice has none (docs/measuring.md "Confidence").
      confidence: outcome === 'handoff' ? null : 1,
    },
    decision.kind === 'handoff' ? ['handoff'] : ['open'],
  );
  if (!message) {
    // A person took the conversation over first: as a model's reply, nothing is kept or charged.
    if (decision.kind !== 'handoff') await refundCredit(ctx, turn.reservation);
    if (!signal.aborted)
      emit({ type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } });
    return { messageId: null, status: 'withdrawn', text: '' };
  }
  if (curatedAnswerId) await countAnswerUse(ctx.db, owner, curatedAnswerId);
  void announceMessage(ctx, conversation, message);
  if (!signal.aborted) {
    emit({ type: 'text-delta', textDelta: text });
    emit({ type: 'finish', messageId: message.id, usage: { promptTokens: 0, completionTokens: 0 } });
  }
  return { messageId: message.id, status: 'complete', text };
}
