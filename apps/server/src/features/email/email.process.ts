import {
  EMAIL_MAX_BYTES,
  EMAIL_REPLIES_PER_SENDER_HOUR,
  type EmailNotAnswered,
} from '@parley/contract/email';
import type { ParsedMail } from 'mailparser';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { runReply } from '../chat/engine.ts';
import { beginTurn, type Turn } from '../chat/turn.ts';
import { createContact, listContacts } from '../contacts/contacts.service.ts';
import { changeConversation } from '../conversations/conversation-states.ts';
import {
  announceMessage,
  appendMessage,
  type ConversationRow,
  findConversation,
  type MessageRow,
  prepareStart,
} from '../conversations/conversations.service.ts';
import { planStanding } from '../workspaces/plan.ts';
import { authenticateEmail } from './email.auth.ts';
import { queueReply } from './email.outbound.ts';
import {
  addressesOf,
  attachmentsOf,
  type Mailbox,
  newTextOf,
  parseEmail,
  refusedByHeaders,
  sanitise,
  subjectOf,
  threadIdsOf,
} from './email.parse.ts';
import * as repo from './email.repo.ts';

/**
 * The `email-inbound` job's work on one stored message (docs/email.md): parse, authenticate,
 * thread, store the customer's new text with its email side and attachments, and let the AI
 * answer unless the mail must not be answered.
 */

type Channel = NonNullable<Awaited<ReturnType<typeof repo.findChannel>>>;
/** Longer than a model's answer may take: one message is never processed twice at once. */
const leaseMs = (ctx: AppContext) => ctx.config.ai.timeoutMs + 120_000;
const AT_ONCE = 2;

export async function processInboundBatch(ctx: AppContext, batch: number): Promise<number> {
  const at = now();
  const claimed = await repo.claimInbound(ctx.db, batch, at, new Date(at.getTime() + leaseMs(ctx)));
  const queue = claimed.map(({ id }) => id);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await processInbound(ctx, id).catch(async (err: unknown) => {
        ctx.log.error({ err, inboundId: id }, 'email inbound not processed; will retry');
        await repo.updateInbound(ctx.db, id, { error: String((err as Error)?.message ?? err).slice(0, 500) });
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  return claimed.length;
}

/** The sender as a contact, per the configuration (as SMS: docs/sms.md "Contacts"). */
async function contactFor(ctx: AppContext, found: Channel, from: Mailbox): Promise<string | null> {
  const { config, assistant } = found;
  const match = async () =>
    (await listContacts(ctx, assistant.workspaceId, { email: from.address }, { limit: 1, offset: 0 })).rows[0]
      ?.id ?? null;
  if (config.enableContactMatching) {
    const id = await match();
    if (id) return id;
  }
  if (!config.autoCreateContacts) return null;
  try {
    const input = from.name ? { email: from.address, name: from.name } : { email: from.address };
    const contact = await createContact(
      ctx,
      { workspaceId: assistant.workspaceId, plan: planStanding(found).plan },
      input,
      'email',
    );
    return contact.id;
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict:api')
      return config.enableContactMatching ? match() : null;
    if (err instanceof AppError && (err.code === 'plan_limit_reached' || err.code === 'bad_request:api'))
      return null;
    throw err;
  }
}

async function whyNotAnswered(
  ctx: AppContext,
  found: Channel,
  mail: ParsedMail,
  from: Mailbox | undefined,
  dmarc: string,
): Promise<EmailNotAnswered | null> {
  const { config } = found;
  const own = from
    ? from.address === config.address || (await repo.isChannelAddress(ctx.db, from.address))
    : false;
  const byHeaders = refusedByHeaders(mail, from?.address, own);
  if (byHeaders) return byHeaders;
  if (dmarc === 'fail') return 'dmarc_fail';
  if (!config.aiReplies) return 'ai_replies_off';
  const since = new Date(now().getTime() - 3600_000);
  const sent = await repo.aiRepliesTo(
    ctx.db,
    config.workspaceId,
    config.assistantId,
    from?.address ?? '',
    since,
  );
  if (sent >= EMAIL_REPLIES_PER_SENDER_HOUR) return 'rate_limited';
  return null;
}

/** Stores a message with no AI reply (not to be answered, or no credits left). */
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

export async function processInbound(ctx: AppContext, id: string): Promise<void> {
  const row = await repo.findInbound(ctx.db, id);
  if (!row || row.state === 'done') return;
  const found = await repo.findChannel(ctx.db, row.assistantId);
  // Stored before a crash: the reply's credit and context are gone with the process; the message
  // is in the inbox for the people (docs/email.md "Replies").
  if (!found || row.messageId) {
    await repo.updateInbound(ctx.db, id, { state: 'done', leaseUntil: null });
    return;
  }
  const { assistant, config } = found;
  const mail = await parseEmail(row.raw);
  const { from, to, cc } = addressesOf(mail);
  const auth = await authenticateEmail(ctx, row.raw);
  const reason = await whyNotAnswered(ctx, found, mail, from, auth.dmarc);
  const thread = threadIdsOf(mail);
  const ids = [...(thread.inReplyTo ? [thread.inReplyTo] : []), ...thread.references.slice().reverse()];
  const threadId = await repo.threadOf(ctx.db, config.workspaceId, config.assistantId, ids);
  const existing = threadId ? await findConversation(ctx, config.workspaceId, threadId) : undefined;
  // Writing into a closed conversation reopens it (docs/inbox.md "States").
  const conversation =
    existing?.status === 'closed'
      ? ((await changeConversation(ctx, existing, { kind: 'reopen' }, { type: 'visitor', id: null }))
          ?.conversation ?? existing)
      : existing;
  const subject = subjectOf(mail);
  const content = newTextOf(mail);
  // Everything the email side needs is made before the message is stored, so that between storing
  // it and linking the inbound row to it (recordEmailSide) there is one transaction, no parsing.
  const side = { files: await attachmentsOf(mail, EMAIL_MAX_BYTES), html: sanitise(mail.html) };
  const spec = conversation ?? {
    workspaceId: config.workspaceId,
    assistantId: config.assistantId,
    channel: 'email' as const,
    contactId: from ? await contactFor(ctx, found, from) : null,
    title: (subject || `Email from ${from?.address ?? 'unknown sender'}`).slice(0, 80),
  };
  let turn: Extract<Turn, { kind: 'reply' }> | undefined;
  let stored: { conversation: ConversationRow; message: MessageRow };
  if (reason) {
    stored = await storeWithoutReply(ctx, conversation, spec, content);
  } else {
    const standing = planStanding(found);
    try {
      const begun = await beginTurn(ctx, {
        assistant,
        plan: standing.plan,
        monthlyCredits: standing.monthlyCredits,
        conversation: spec,
        content,
      });
      if (begun.kind === 'reply') turn = begun;
      stored = { conversation: begun.conversation, message: begun.userMessage };
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'credits_limit_exceeded')) throw err;
      stored = await storeWithoutReply(ctx, conversation, spec, content);
    }
  }
  await recordEmailSide(ctx, row, stored, mail, { from, to, cc, subject, auth, reason, thread, ...side });
  if (turn) {
    const outcome = await runReply(ctx, turn, () => undefined, new AbortController().signal, ctx.log);
    if (outcome.messageId && outcome.status !== 'withdrawn' && outcome.text.trim()) {
      await queueReply(ctx, turn.conversation, outcome.messageId, true);
    }
  }
  await repo.updateInbound(ctx.db, id, { state: 'done', leaseUntil: null, error: null });
}

/** The message's email side and attachments, in one transaction with the inbound row's link. */
async function recordEmailSide(
  ctx: AppContext,
  row: repo.EmailInboundRow,
  stored: { conversation: ConversationRow; message: MessageRow },
  mail: ParsedMail,
  info: {
    from: Mailbox | undefined;
    to: Mailbox[];
    cc: Mailbox[];
    subject: string;
    auth: { spf: string; dkim: string; dmarc: string };
    reason: EmailNotAnswered | null;
    thread: { inReplyTo: string | null; references: string[] };
    files: Awaited<ReturnType<typeof attachmentsOf>>;
    html: ReturnType<typeof sanitise>;
  },
) {
  const { files } = info;
  const { conversation, message } = stored;
  await ctx.db.transaction(async (tx) => {
    await repo.insertEmailMessage(tx, {
      messageId: message.id,
      workspaceId: conversation.workspaceId,
      assistantId: conversation.assistantId,
      conversationId: conversation.id,
      direction: 'inbound',
      messageIdHeader: mail.messageId ?? row.messageIdHeader,
      inReplyTo: info.thread.inReplyTo,
      references: info.thread.references,
      subject: info.subject,
      fromAddress: info.from?.address ?? '',
      fromName: info.from?.name ?? '',
      to: info.to,
      cc: info.cc,
      html: info.html,
      auth: info.auth,
      marked: info.auth.dmarc === 'fail',
      notAnswered: info.reason,
      inboundId: row.id,
      createdAt: message.createdAt,
    });
    await repo.insertAttachments(
      tx,
      files.map((f) => ({
        id: newId('att'),
        workspaceId: conversation.workspaceId,
        messageId: message.id,
        conversationId: conversation.id,
        ...f,
      })),
    );
    await repo.updateInbound(tx, row.id, { messageId: message.id });
  });
}
