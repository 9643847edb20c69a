import type { Language } from '@parley/contract/languages';
import type { AppContext } from '../../context.ts';
import type { Channel, ConversationStatus, TicketPriority } from '../../db/schema/index.ts';
import type { Tenant } from '../../http/actor.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { findCanned } from '../canned/canned.repo.ts';
import { renderCanned } from '../canned/canned.service.ts';
import {
  announceChange,
  applyChange,
  type Change,
  type Changed,
  changeConversation,
} from '../conversations/conversation-states.ts';
import {
  type ConversationRow,
  type Delivery,
  deliveriesFor,
  type MessageRow,
  postAgentMessage,
  toConversationDetail,
  toMessage,
} from '../conversations/conversations.service.ts';
import { refundCredit } from '../credits/credits.service.ts';
import { emailInfoFor } from '../email/email.messages.ts';
import { createTicket } from '../tickets/tickets.service.ts';
import { endSessionOfConversationIn } from '../widget/widget.service.ts';
import { widgetSessionChannel } from '../widget/widget-live.ts';
import { assigneeRefusal } from '../workspaces/members.service.ts';
import * as repo from './inbox.repo.ts';
import { type Payer, translateText } from './translate.ts';

/** The inbox's view of a conversation (docs/inbox.md "Endpoints"). */
export const toInboxConversation = toConversationDetail;

type Author = { name: string | null; avatarUrl: string | null } | undefined;

/** A message with its human author (`agent` replies and internal-chat `user` messages). */
export const toInboxMessage = (m: MessageRow, author?: Author, delivery?: Delivery) => ({
  ...toMessage(m, delivery),
  author: m.authorId
    ? { id: m.authorId, name: author?.name ?? null, avatarUrl: author?.avatarUrl ?? null }
    : null,
});

export type ListQuery = {
  limit: number;
  cursor?: string;
  status?: ConversationStatus;
  channel?: Channel;
  language?: string;
  assistantId?: string;
  assigneeId?: string;
  unassigned?: 'true' | 'false';
  lowConfidence?: 'true';
  slaBreached?: 'true';
  sort?: 'recent' | 'sla';
  labelId?: string;
};

/** The SLA order's key of a row, as `slaDueSql` computes it. */
function slaDueOf(c: {
  slaFirstDueAt: Date | null;
  slaNextDueAt: Date | null;
  slaResolutionDueAt: Date | null;
}): number {
  const times = [c.slaFirstDueAt, c.slaNextDueAt, c.slaResolutionDueAt].flatMap((d) =>
    d ? [d.getTime()] : [],
  );
  return times.length ? Math.min(...times) : repo.NO_DUE;
}

export async function listConversations(ctx: AppContext, tenant: Tenant, q: ListQuery) {
  if (q.unassigned !== undefined && q.assigneeId !== undefined) {
    throw badRequest('Use assigneeId or unassigned, not both', {
      unassigned: 'Cannot be combined with assigneeId',
    });
  }
  const bySla = q.sort === 'sla';
  // Bound to the workspace's inbox and its order, not to its filters: a position is as good under any of them.
  const cursor = ctx.cursors.open(
    {
      list: bySla ? 'inbox.conversations.sla' : 'inbox.conversations',
      workspaceId: tenant.workspaceId,
      parentId: null,
    },
    q.cursor,
  );
  const filter = {
    workspaceId: tenant.workspaceId,
    status: q.status,
    channel: q.channel,
    language: q.language,
    assistantId: q.assistantId,
    assigneeId: q.assigneeId,
    unassigned: q.unassigned === undefined ? undefined : q.unassigned === 'true',
    lowConfidence: q.lowConfidence === 'true',
    slaBreached: q.slaBreached === 'true',
    labelId: q.labelId,
    limit: q.limit,
    after: cursor.after,
  };
  const rows = bySla ? await repo.listInboxBySla(ctx.db, filter) : await repo.listInbox(ctx.db, filter);
  const page = cursor.page(rows, q.limit, (r) =>
    bySla ? { t: slaDueOf(r), id: r.id } : { t: (r.lastMessageAt ?? r.createdAt).getTime(), id: r.id },
  );
  return { ...page, data: page.data.map(toInboxConversation) };
}

export async function listConversationMessages(
  ctx: AppContext,
  c: ConversationRow,
  q: { limit: number; cursor?: string },
) {
  const cursor = ctx.cursors.open(
    { list: 'inbox.messages', workspaceId: c.workspaceId, parentId: c.id },
    q.cursor,
  );
  const rows = await repo.listMessagesWithAuthors(ctx.db, {
    workspaceId: c.workspaceId,
    conversationId: c.id,
    limit: q.limit,
    after: cursor.after,
  });
  const page = cursor.page(rows, q.limit, (r) => ({
    t: r.message.createdAt.getTime(),
    id: r.message.id,
  }));
  const delivery = await deliveriesFor(
    ctx,
    c,
    page.data.map((r) => r.message),
  );
  const email = await emailInfoFor(
    ctx,
    c,
    page.data.map((r) => r.message),
  );
  return {
    ...page,
    data: page.data.map((r) => ({
      ...toInboxMessage(
        r.message,
        { name: r.authorName, avatarUrl: r.authorAvatarUrl },
        delivery.get(r.message.id),
      ),
      ...(email.has(r.message.id) ? { email: email.get(r.message.id) } : {}),
    })),
  };
}

const byUser = (userId: string) => ({ type: 'user' as const, id: userId });

/** A change made by a member from the inbox; the conversation as it now is. */
async function change(ctx: AppContext, c: ConversationRow, what: Change, userId: string) {
  const result = await changeConversation(ctx, c, what, byUser(userId));
  return result?.conversation ?? c;
}

/** `POST .../handoff`: the caller takes over (assignee: the caller unless someone holds it). */
export const takeOver = (ctx: AppContext, c: ConversationRow, userId: string) =>
  change(ctx, c, { kind: 'takeover' }, userId);

/** `POST .../release`: back to the AI (`open`, no assignee). */
export const release = (ctx: AppContext, c: ConversationRow, userId: string) =>
  change(ctx, c, { kind: 'release' }, userId);

/** `PATCH ... {assigneeId}`: a member who can answer (not a guest), or null to unassign. */
export async function assign(ctx: AppContext, c: ConversationRow, assigneeId: string | null, userId: string) {
  if (assigneeId !== null) {
    const refusal = await assigneeRefusal(ctx.db, c.workspaceId, assigneeId);
    if (refusal) {
      throw badRequest('The assignee must be a member of this workspace who can answer', {
        assigneeId: refusal,
      });
    }
  }
  return change(ctx, c, { kind: 'assign', assigneeId }, userId);
}

/**
 * `POST .../close`: `closed` with `conversation.ended`. A widget conversation's live session ends
 * with it, in the same transaction, and the open widget hears `ended` (docs/inbox.md "States").
 */
export async function close(ctx: AppContext, c: ConversationRow, userId: string) {
  const by = byUser(userId);
  const { result, sessionId } = await ctx.db.transaction(async (tx) => {
    if (c.channel === 'widget') {
      const ended = await endSessionOfConversationIn(tx, c, by);
      if (ended) return { result: ended.change, sessionId: ended.sessionId };
    }
    return { result: await applyChange(tx, c, { kind: 'close' }, by), sessionId: undefined };
  });
  // The status first, then `ended`, after which the widget's stream closes.
  if (result) await announceChange(ctx, result as Changed);
  if (sessionId) {
    await ctx.fanout.publish(widgetSessionChannel(sessionId), { type: 'ended' }).catch(() => undefined);
  }
  return result?.conversation ?? c;
}

/**
 * `POST .../messages`: a member's reply, stored as role `agent` and delivered through the
 * conversation's channel (docs/inbox.md "Live delivery"). Replying to a conversation the AI still
 * holds takes it over first, so the AI and a person never both answer. With `translateTo` the
 * channel carries the translation and the message keeps the person's words as `originalContent`;
 * `payer` is the workspace the translation's credit is charged to.
 */
export async function reply(
  ctx: AppContext,
  c: ConversationRow,
  userId: string,
  body: { content?: string; cannedResponseId?: string; translateTo?: Language },
  payer: Payer,
) {
  // A canned response of another workspace is refused before anything changes.
  const canned = body.cannedResponseId
    ? await findCanned(ctx.db, c.workspaceId, body.cannedResponseId)
    : undefined;
  if (body.cannedResponseId && !canned) {
    throw badRequest('Validation failed', { cannedResponseId: 'No such canned response in this workspace' });
  }
  const author = await repo.userCard(ctx.db, userId);
  const content = canned ? await renderCanned(ctx, canned, c, { name: author?.name ?? null }) : body.content;
  if (!content)
    throw badRequest('Validation failed', { cannedResponseId: 'It renders empty for this conversation' });
  if (c.status === 'closed') throw conflict('This conversation is closed');
  // Sent translated (docs/languages.md "Translation"): translated before anything changes, so a
  // failed translation leaves the conversation, its messages and the customer untouched.
  const translated = body.translateTo
    ? await translateText(ctx, payer, content, body.translateTo)
    : undefined;
  try {
    const current = c.status === 'open' ? await takeOver(ctx, c, userId) : c;
    const row = await postAgentMessage(ctx, current, {
      content: translated?.text ?? content,
      originalContent: translated ? content : null,
      usage: translated?.usage ?? null,
      authorId: userId,
      authorName: author?.name ?? null,
      authorAvatarUrl: author?.avatarUrl ?? null,
    });
    return toInboxMessage(row, author);
  } catch (err) {
    // Not stored (closed meanwhile, say): the translation's credit goes back.
    if (translated) await refundCredit(ctx, translated.reservation);
    throw err;
  }
}

/** `POST .../tickets`: a ticket linked to the conversation and its contact. */
export async function ticketFrom(
  ctx: AppContext,
  tenant: Tenant,
  c: ConversationRow,
  input: { subject: string; description?: string; priority?: TicketPriority },
) {
  return createTicket(
    ctx,
    { workspaceId: tenant.workspaceId, plan: tenant.plan },
    { ...input, conversationId: c.id, contactId: c.contactId },
  );
}
