import type { ChangedBy } from '@parley/contract/inbox';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { announceToInbox, type Changed } from '../conversations/conversation-states.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';
import {
  announceMessage,
  appendMessage,
  toConversationDetail,
} from '../conversations/conversations.service.ts';
import { toConversation } from '../conversations/conversations.shapes.ts';
import { recordEvent } from '../events/events.service.ts';
import { findInboxSettings } from '../inbox/inbox-settings.repo.ts';
import * as repo from './csat.repo.ts';

/**
 * Satisfaction surveys (docs/csat.md). When a conversation that a person replied to closes and
 * the workspace asks, the customer rates it once, 1 to 5: in the widget (its `ended` event
 * carries the question) or by SMS (the question goes as a text; their next message, one digit
 * within 24 hours, is the rating).
 */

/** How long an SMS customer has to answer the question. */
export const SMS_ANSWER_MS = 24 * 3_600_000;

/** The question to put to the customer now, or null when this conversation asks none. */
export async function csatQuestionFor(
  db: Executor,
  c: Pick<ConversationRow, 'workspaceId' | 'id' | 'status' | 'csatRatedAt'>,
): Promise<string | null> {
  if (c.status !== 'closed' || c.csatRatedAt) return null;
  const settings = await findInboxSettings(db, c.workspaceId);
  if (!settings.csat.enabled) return null;
  return (await repo.personReplied(db, c.workspaceId, c.id)) ? settings.csat.question : null;
}

/**
 * Stores the customer's rating (409 when the conversation asks none or was rated), with
 * `conversation.rated` in the same transaction; the inbox hears of it after commit.
 */
export async function rateConversation(
  ctx: AppContext,
  c: ConversationRow,
  input: { rating: number; comment?: string },
) {
  if (c.csatRatedAt) throw conflict('This conversation was already rated');
  if (!(await csatQuestionFor(ctx.db, c))) throw conflict('This conversation is not asking for a rating');
  const at = now();
  const rated = await ctx.db.transaction(async (tx) => {
    const row = await repo.storeRating(tx, c, { rating: input.rating, comment: input.comment || null, at });
    if (!row) return undefined;
    await recordEvent(tx, {
      workspaceId: row.workspaceId,
      type: 'conversation.rated',
      data: {
        ...toConversation(row),
        conversationId: row.id,
        rating: input.rating,
        comment: row.csatComment,
      },
    });
    return row;
  });
  if (!rated) throw conflict('This conversation was already rated');
  const changedBy: ChangedBy = { type: 'visitor', id: null };
  await announceToInbox(ctx, rated, {
    type: 'conversation.updated',
    conversation: toConversationDetail(rated),
    changedBy,
  });
  return { rating: input.rating, comment: rated.csatComment, ratedAt: at.toISOString() };
}

/**
 * After a committed close of an SMS conversation that asks: the question goes to the customer as
 * a text, stored in the conversation as a system note (docs/csat.md "By SMS"). Never throws: the
 * close is stored.
 */
export async function askAfterClose(ctx: AppContext, result: Changed): Promise<void> {
  const c = result.conversation;
  if (!result.changed || c.status !== 'closed' || c.channel !== 'sms') return;
  const sms = ctx.channels.sms;
  try {
    const question = await csatQuestionFor(ctx.db, c);
    if (!question || !sms) return;
    const note = await appendMessage(ctx.db, c, {
      role: 'system',
      content: `${question} Reply with one number from 1 (bad) to 5 (great).`,
    });
    await repo.setAsked(ctx.db, c, now());
    await announceMessage(ctx, c, note);
    await sms.deliverReply(ctx, c, note);
  } catch (err) {
    ctx.log.error({ err, conversationId: c.id }, 'satisfaction question not sent');
  }
}

/**
 * An inbound SMS that may answer the question: when the number's conversation asked within 24
 * hours, this message is its answer or, not one digit 1-5, ends the wait. True when it was the
 * rating (nothing more to do with the message).
 */
export async function takeSmsRating(
  ctx: AppContext,
  assistant: { id: string; workspaceId: string },
  phone: string,
  body: string,
): Promise<boolean> {
  const since = new Date(now().getTime() - SMS_ANSWER_MS);
  const asked = await repo.askedBySms(ctx.db, assistant.workspaceId, assistant.id, phone, since);
  if (!asked) return false;
  const digit = /^\s*([1-5])\s*[.!]?\s*$/.exec(body)?.[1];
  if (!digit) {
    await repo.setAsked(ctx.db, asked, null);
    return false;
  }
  await rateConversation(ctx, asked, { rating: Number(digit) }).catch((err) => {
    // A rating that raced another is the same customer answering twice: the first one counts.
    if (!(err instanceof AppError && err.code === 'conflict:api')) throw err;
  });
  return true;
}
