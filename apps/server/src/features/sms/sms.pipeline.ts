import { isE164 } from '@parley/contract/phone';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { messages } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { readContext } from '../chat/context.ts';
import { runReply } from '../chat/engine.ts';
import { beginTurn, type Turn } from '../chat/turn.ts';
import { createContact, listContacts } from '../contacts/contacts.service.ts';
import {
  announceChange,
  applyChange,
  type Changed,
  changeConversation,
} from '../conversations/conversation-states.ts';
import {
  announceMessage,
  appendMessage,
  type ConversationRow,
  findConversation,
  historyWithin,
  type MessageRow,
  prepareStart,
} from '../conversations/conversations.service.ts';
import { takeSmsRating } from '../csat/csat.service.ts';
import { planStanding } from '../workspaces/plan.ts';
import { queueReply } from './sms.outbound.ts';
import * as repo from './sms.repo.ts';
import { statusCallbackUrl } from './sms.service.ts';

/**
 * The SMS conversation loop (docs/sms.md "Inbound messages", "Replies and delivery status"):
 * inbound messages stored at the acknowledgement are answered here by the `sms-inbound` job,
 * replies go out through the `sms-send` queue, and idle sessions end.
 */

/** Longer than a model's answer may take: one sender's message is never answered twice at once. */
const leaseMs = (ctx: AppContext) => ctx.config.ai.timeoutMs + 60_000;

type Found = NonNullable<Awaited<ReturnType<typeof repo.findForCallback>>>;

/** Replies generated at once by one process. */
const ANSWERING_AT_ONCE = 2;

/** Claims and answers up to `batch` inbound messages; returns how many it claimed. */
export async function answerInboundBatch(ctx: AppContext, batch: number): Promise<number> {
  const at = now();
  const claimed = await repo.claimInbound(ctx.db, batch, at, new Date(at.getTime() + leaseMs(ctx)));
  // A few at a time, each after a turn of the event loop: the acknowledgements of new messages
  // (which the provider times) get the loop between replies (docs/performance.md "SMS").
  const queue = claimed.map(({ id }) => id);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await answerInbound(ctx, id).catch((err: unknown) => {
        // The lease runs out and the message is tried again (docs/sms.md "Inbound messages").
        ctx.log.error({ err, inboundId: id }, 'sms inbound not answered; will retry');
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(ANSWERING_AT_ONCE, queue.length) }, worker));
  return claimed.length;
}

/** A contact for a new session's sender, per the configuration (docs/sms.md "Contacts"). */
async function contactFor(ctx: AppContext, found: Found, phone: string): Promise<string | null> {
  const { config, assistant } = found;
  if (!isE164(phone)) return null;
  const match = async () =>
    (await listContacts(ctx, assistant.workspaceId, { phone }, { limit: 1, offset: 0 })).rows[0]?.id ?? null;
  if (config.enableContactMatching) {
    const id = await match();
    if (id) return id;
  }
  if (!config.autoCreateContacts) return null;
  try {
    const contact = await createContact(
      ctx,
      { workspaceId: assistant.workspaceId, plan: planStanding(found).plan },
      { phone },
      'sms',
    );
    return contact.id;
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict:api')
      return config.enableContactMatching ? match() : null;
    // A full contacts quota leaves the conversation without a contact; the message is still answered.
    if (err instanceof AppError && err.code === 'plan_limit_reached') return null;
    throw err;
  }
}

/** Ends a session and closes its conversation (`conversation.ended`), in one transaction. */
async function endSession(
  ctx: AppContext,
  session: { id: string; workspaceId: string; conversationId: string | null },
  reason: 'inactivity',
) {
  const change = await ctx.db.transaction(async (tx) => {
    const at = now();
    const ended = await repo.endSession(tx, session, at);
    if (!ended || !session.conversationId) return undefined;
    return applyChange(
      tx,
      { workspaceId: session.workspaceId, id: session.conversationId },
      { kind: 'close' },
      { type: 'system', id: null },
      { data: { channel: 'sms', smsSessionId: session.id, reason }, at },
    );
  });
  if (change?.changed) await announceChange(ctx, change as Changed);
}

/**
 * The sender's live session: a session silent for longer than `sessionTimeoutMinutes` ends here,
 * when the next message arrives, and the message opens a new one (docs/sms.md "Sessions").
 */
async function sessionFor(ctx: AppContext, found: Found, phone: string) {
  const { config, assistant } = found;
  const at = now();
  let session = await repo.activeSession(ctx.db, assistant, phone);
  if (session && session.lastMessageAt.getTime() + config.sessionTimeoutMinutes * 60_000 <= at.getTime()) {
    await endSession(ctx, session, 'inactivity');
    session = undefined;
  }
  if (session) return session;
  const contactId = await contactFor(ctx, found, phone);
  try {
    return await repo.insertSession(ctx.db, {
      id: newId('smss'),
      workspaceId: assistant.workspaceId,
      assistantId: assistant.id,
      phoneNumber: phone,
      contactId,
      startedAt: at,
      lastMessageAt: at,
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const again = await repo.activeSession(ctx.db, assistant, phone);
    if (!again) throw err;
    return again;
  }
}

async function findMessage(ctx: AppContext, conversation: ConversationRow, id: string) {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.conversationId, conversation.id)))
    .limit(1);
  return row as MessageRow | undefined;
}

/**
 * Answers one stored inbound message. `pending`: the message enters its session's conversation
 * through the chat engine's turn (credits, handoff); once stored it is `stored`. The reply is then
 * generated and queued for sending, and the message is `done`. A retry after a crash picks up
 * where it stopped: a `stored` message is answered with the credit it already holds.
 */
export async function answerInbound(ctx: AppContext, id: string): Promise<void> {
  const row = await repo.findInbound(ctx.db, id);
  if (!row || row.state === 'done') return;
  const found = await repo.findForCallback(ctx.db, row.assistantId);
  if (!found) {
    await repo.updateInbound(ctx.db, id, { state: 'done' });
    return;
  }
  const { assistant } = found;
  // The answer to the satisfaction question is a rating, not a message for the AI (docs/csat.md "By SMS").
  if (row.state === 'pending' && (await takeSmsRating(ctx, assistant, row.fromNumber, row.body))) {
    await repo.updateInbound(ctx.db, id, { state: 'done' });
    return;
  }
  let turn: Extract<Turn, { kind: 'reply' }>;
  if (row.state === 'pending') {
    const begun = await storeInbound(ctx, found, row);
    if (!begun) return;
    turn = begun;
  } else {
    const resumed = await resumeTurn(ctx, found, row);
    if (!resumed) {
      await repo.updateInbound(ctx.db, id, { state: 'done' });
      return;
    }
    turn = resumed;
  }
  const outcome = await runReply(ctx, turn, () => undefined, new AbortController().signal, ctx.log);
  if (outcome.messageId) {
    await queueReply(ctx, {
      assistant,
      conversationId: turn.conversation.id,
      messageId: outcome.messageId,
      to: row.fromNumber,
      text: outcome.text,
      maxLength: found.config.maxMessageLength,
      statusCallback: statusCallbackUrl(row.publicBase, assistant.id),
    });
  }
  await repo.updateInbound(ctx.db, id, { state: 'done', replyMessageId: outcome.messageId });
}

/**
 * Stores a `pending` message in its conversation; returns the turn to reply to, or undefined when
 * no AI reply is due (a person holds the conversation, or no credits are left: the message goes
 * to the inbox only).
 */
async function storeInbound(ctx: AppContext, found: Found, row: repo.SmsInboundRow) {
  const { assistant } = found;
  const standing = planStanding(found);
  const session = await sessionFor(ctx, found, row.fromNumber);
  const existing = session.conversationId
    ? await findConversation(ctx, assistant.workspaceId, session.conversationId)
    : undefined;
  // Writing into a conversation a member closed reopens it, and the AI answers again
  // (docs/inbox.md "States").
  const conversation =
    existing?.status === 'closed'
      ? ((await changeConversation(ctx, existing, { kind: 'reopen' }, { type: 'visitor', id: null }))
          ?.conversation ?? existing)
      : existing;
  const spec = conversation ?? {
    workspaceId: assistant.workspaceId,
    assistantId: assistant.id,
    channel: 'sms' as const,
    contactId: session.contactId,
    title: `SMS ${row.fromNumber}`.slice(0, 80),
  };
  let turn: Turn;
  try {
    turn = await beginTurn(ctx, {
      assistant,
      plan: standing.plan,
      monthlyCredits: standing.monthlyCredits,
      conversation: spec,
      content: row.body,
    });
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'credits_limit_exceeded')) throw err;
    // No credits: the message is stored for the people in the inbox, with no AI reply.
    const stored = await storeWithoutReply(ctx, conversation, spec, row.body);
    await afterStored(ctx, session, stored.conversation, stored.message, row, 'done');
    return undefined;
  }
  await afterStored(
    ctx,
    session,
    turn.conversation,
    turn.userMessage,
    row,
    turn.kind === 'reply' ? 'stored' : 'done',
    turn.kind === 'reply' ? turn.reservation : undefined,
  );
  return turn.kind === 'reply' ? turn : undefined;
}

async function storeWithoutReply(
  ctx: AppContext,
  conversation: ConversationRow | undefined,
  spec: Parameters<typeof prepareStart>[0],
  content: string,
) {
  const input = { role: 'user' as const, content };
  if (conversation) {
    const message = await appendMessage(ctx.db, conversation, input);
    await announceMessage(ctx, conversation, message);
    return { conversation, message };
  }
  const pending = prepareStart(spec, input);
  await pending.store(ctx.db);
  await announceMessage(ctx, pending.conversation, pending.message, true);
  return pending;
}

async function afterStored(
  ctx: AppContext,
  session: repo.SmsSessionRow,
  conversation: ConversationRow,
  message: MessageRow,
  row: repo.SmsInboundRow,
  state: 'stored' | 'done',
  reservation?: { workspaceId: string; periodStart: Date; used: number; limit: number },
) {
  await repo.countSessionMessage(ctx.db, session, message.createdAt, conversation.id);
  await repo.updateInbound(ctx.db, row.id, {
    state,
    conversationId: conversation.id,
    messageId: message.id,
    reservation: reservation ? { ...reservation, periodStart: reservation.periodStart.toISOString() } : null,
  });
}

/** The turn of a message stored before a crash, with the credit it reserved then. */
async function resumeTurn(
  ctx: AppContext,
  found: Found,
  row: repo.SmsInboundRow,
): Promise<Extract<Turn, { kind: 'reply' }> | undefined> {
  const { assistant } = found;
  if (!row.conversationId || !row.messageId || !row.reservation) return undefined;
  const conversation = await findConversation(ctx, assistant.workspaceId, row.conversationId);
  if (conversation?.status !== 'open') return undefined;
  const userMessage = await findMessage(ctx, conversation, row.messageId);
  if (!userMessage) return undefined;
  return {
    kind: 'reply',
    conversation,
    userMessage,
    reservation: { ...row.reservation, periodStart: new Date(row.reservation.periodStart) },
    assistant,
    plan: planStanding(found).plan,
    context: readContext(ctx, assistant, userMessage.content),
    history: historyWithin(ctx, conversation, ctx.config.ai.historyTokens, userMessage),
  };
}

/** Ends up to `batch` sessions idle past their timeout; returns how many. */
export async function endIdleSessions(ctx: AppContext, batch: number): Promise<number> {
  const idle = await repo.lockIdleSessions(ctx.db, now(), batch);
  for (const s of idle) {
    await endSession(
      ctx,
      { id: s.id, workspaceId: s.workspace_id, conversationId: s.conversation_id },
      'inactivity',
    );
  }
  return idle.length;
}
