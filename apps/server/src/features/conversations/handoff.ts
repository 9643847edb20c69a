import type { AppContext } from '../../context.ts';
import type { HandoffReason } from '../../db/schema/index.ts';
import { linesFor } from '../../providers/llm/responder-lines.ts';
import { outsideHoursNotice } from '../business-hours/business-hours.service.ts';
import { announceChange, applyChange } from './conversation-states.ts';
import * as repo from './conversations.repo.ts';
import { announceMessage, appendMessage } from './conversations.service.ts';

/**
 * The AI hands the conversation to humans (docs/inbox.md "States"): status `handoff`, so later
 * user messages are stored for a person and get no AI reply, with a system message saying why:
 * the customer's reason, the guidance rule that matched (`rule`: reason `rule`,
 * docs/steering.md "Guidance rules"), or a reply withheld below the assistant's minimum confidence
 * (reason `low_confidence`, docs/measuring.md "Confidence"). The change and the note commit together; the inbox hears
 * of it after commit.
 */
export async function requestHandoff(
  ctx: AppContext,
  conversation: repo.ConversationRow,
  reason: string,
  cause?: HandoffCause,
) {
  const { result, note } = await ctx.db.transaction(async (tx) => {
    // Asked for a person right after the AI declined to answer: reason `declined` (docs/steering.md "Outcomes").
    const why: HandoffReason = cause
      ? cause.kind
      : (await repo.lastReplyOutcome(tx, conversation)) === 'declined'
        ? 'declined'
        : 'customer_asked';
    const changed = await applyChange(
      tx,
      conversation,
      { kind: 'handoff', reason: why, ...(cause?.kind === 'rule' ? { ruleId: cause.rule.id } : {}) },
      {
        type: 'assistant',
        id: conversation.assistantId,
      },
    );
    const message = await appendMessage(tx, conversation, {
      role: 'system',
      content: handoffNote(reason, cause),
    });
    return { result: changed, note: message };
  });
  if (result) {
    await announceChange(ctx, result);
    await announceMessage(ctx, result.conversation, note);
  }
  return result?.conversation;
}

/** Why the AI handed a conversation over when the customer did not ask: a rule, or a weak reply. */
export type HandoffCause =
  | { kind: 'rule'; rule: { id: string; name: string } }
  | { kind: 'low_confidence'; confidence: number; minConfidence: number };

function handoffNote(reason: string, cause: HandoffCause | undefined): string {
  if (cause?.kind === 'rule') return `Handed off by rule: ${cause.rule.name}`;
  if (cause?.kind === 'low_confidence')
    return `The AI's reply was withheld: its confidence ${cause.confidence.toFixed(2)} is below the assistant's minimum ${cause.minConfidence.toFixed(2)}.`;
  return reason ? `The customer asked for a person: ${reason}` : 'The customer asked for a person.';
}

/** What the customer is told when a rule or a withheld reply hands the conversation to a person (English; linesFor gives the others). */
export const HANDOFF_NOTICE = linesFor('en').handoffNotice;

/**
 * The customer's side of a handoff (docs/business-hours.md "The message"): inside business hours
 * (or with none set) a person answers shortly; outside them, the workspace's outside-hours message
 * and when a person is back.
 */
export async function handoffNotice(
  ctx: AppContext,
  workspaceId: string,
  language: string | null = null,
): Promise<string> {
  return (await outsideHoursNotice(ctx, workspaceId)) ?? linesFor(language).handoffNotice;
}

/**
 * A reply during which the AI's handoff tool ran (the customer asked for a person): outside
 * business hours the reply ends with when a person is back; null inside them.
 */
export async function afterHandoffTool(ctx: AppContext, workspaceId: string, reply: string) {
  const notice = await outsideHoursNotice(ctx, workspaceId);
  if (!notice) return null;
  return reply.trim() === '' ? notice : `\n\n${notice}`;
}
