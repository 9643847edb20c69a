import type { AppContext } from '../../context.ts';
import type { Citation } from '../../db/schema/index.ts';
import { now } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import type { ConversationRow, MessageRow } from '../conversations/conversations.service.ts';
import { replySubject } from './email.parse.ts';
import * as repo from './email.repo.ts';
import { setStatus, smtpOf } from './email.service.ts';
import { inWords, smtpTransport } from './email.transport.ts';

/**
 * Replies going out by email (docs/email.md "Replies"): queued with the message they carry, in
 * the thread of the customer's last email, and sent by the `email-send` job with retries.
 */

const SEND_LEASE_MS = 120_000;
/** Seconds before each retry of a send the SMTP server did not take (then `failed`). */
const SEND_RETRY_S = [5, 30, 120, 600];

const domainOf = (address: string) => address.split('@')[1] ?? 'parley.invalid';

/**
 * Queues `message` of an email conversation as a reply to the customer's last email: headers for
 * the thread worked out now (its Message-ID is known before it is sent, so an answer to it
 * threads), then the `email-send` job sends it. Returns false when there is nobody to write to.
 */
export async function queueReply(
  ctx: AppContext,
  conversation: Pick<ConversationRow, 'id' | 'workspaceId' | 'assistantId'>,
  messageId: string,
  byAi: boolean,
): Promise<boolean> {
  const [last, found] = await Promise.all([
    repo.lastInboundOf(ctx.db, conversation.workspaceId, conversation.id),
    repo.findChannel(ctx.db, conversation.assistantId),
  ]);
  if (!last || !found) return false;
  const { config } = found;
  const at = now();
  await repo.insertEmailMessage(ctx.db, {
    messageId,
    workspaceId: conversation.workspaceId,
    assistantId: conversation.assistantId,
    conversationId: conversation.id,
    direction: 'outbound',
    messageIdHeader: `<${messageId}.${randomToken('', 9)}@${domainOf(config.address)}>`,
    inReplyTo: last.messageIdHeader,
    references: [...last.references, last.messageIdHeader].slice(-50),
    subject: replySubject(last.subject),
    fromAddress: config.address,
    fromName: config.displayName,
    to: [{ address: last.fromAddress, name: last.fromName }],
    byAi,
    deliveryState: 'pending',
    nextAttemptAt: at,
    createdAt: at,
  });
  ctx.jobs.wake('email-send');
  return true;
}

/**
 * A person's reply from the inbox (or the v1 API) in an email conversation (the channel
 * adapter, conversations/channels.ts): sent as an email in the thread. Stored already; a failure
 * here is logged, never thrown.
 */
export async function deliverAgentReply(ctx: AppContext, conversation: ConversationRow, message: MessageRow) {
  try {
    if (!(await queueReply(ctx, conversation, message.id, false))) {
      ctx.log.warn({ conversationId: conversation.id }, 'email reply not sent: no address or configuration');
    }
  } catch (err) {
    ctx.log.error({ err, messageId: message.id }, 'email reply not queued');
  }
}

/** The reply's text: what was written, then its sources as titles and links, then the signature. */
export function bodyOf(content: string, citations: Citation[], signature: string): string {
  const parts = [content.trim()];
  const seen = new Set<string>();
  const sources: string[] = [];
  for (const c of citations) {
    const key = c.url ?? c.title ?? c.sourceId;
    if (seen.has(key) || (!c.title && !c.url)) continue;
    seen.add(key);
    sources.push(`- ${[c.title, c.url].filter(Boolean).join(': ')}`);
  }
  if (sources.length > 0) parts.push(`Sources:\n${sources.join('\n')}`);
  if (signature.trim()) parts.push(`-- \n${signature.trim()}`);
  return `${parts.join('\n\n')}\n`;
}

/** Sends one claimed email; records `sent`, or the failure (retried, then `failed`). */
async function sendOne(ctx: AppContext, messageId: string): Promise<void> {
  const row = await repo.findOutbound(ctx.db, messageId);
  if (row?.email.deliveryState !== 'pending') return;
  const { email } = row;
  const found = await repo.findChannel(ctx.db, email.assistantId);
  const fail = async (error: string, final: boolean) => {
    const retryIn = SEND_RETRY_S[email.attempts - 1];
    const last = final || retryIn === undefined;
    await repo.updateEmailMessage(ctx.db, messageId, {
      deliveryState: last ? 'failed' : 'pending',
      deliveryError: error.slice(0, 500),
      ...(last ? {} : { nextAttemptAt: new Date(now().getTime() + (retryIn ?? 0) * 1000) }),
    });
  };
  if (!found) return fail('The email channel was removed', true);
  const transport = smtpTransport(ctx, smtpOf(ctx, found.config));
  if (!transport) return fail('No SMTP server: set smtp on the channel, or SMTP_URL on the server', true);
  const where = found.config.smtpHost ? `the SMTP server ${found.config.smtpHost}` : "the server's SMTP_URL";
  try {
    await transport.sendMail({
      from: { name: email.fromName, address: email.fromAddress },
      to: email.to.map((m) => ({ name: m.name, address: m.address })),
      subject: email.subject,
      text: bodyOf(row.content, row.citations, found.config.signature),
      messageId: email.messageIdHeader,
      inReplyTo: email.inReplyTo ?? undefined,
      references: email.references,
      headers: email.byAi
        ? { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' }
        : undefined,
    });
    await repo.updateEmailMessage(ctx.db, messageId, { deliveryState: 'sent', deliveryError: null });
    if (found.config.statusState !== 'ok' || !found.config.statusCheckedAt)
      await setStatus(ctx, found.config, { ok: true, message: `Replies go out: ${where} took the last one` });
  } catch (err) {
    const words = inWords(err, where);
    const code = (err as { responseCode?: number }).responseCode;
    ctx.log.warn({ messageId, code }, 'email send failed');
    await fail(words, code !== undefined && code >= 500 && code !== 535);
    await setStatus(ctx, found.config, { ok: false, message: words });
  } finally {
    transport.close();
  }
}

/** Claims due sends and sends them; returns how many it claimed. */
export async function sendDueBatch(ctx: AppContext, batch: number): Promise<number> {
  const at = now();
  const claimed = await repo.claimOutbound(ctx.db, batch, at, new Date(at.getTime() + SEND_LEASE_MS));
  await Promise.all(
    claimed.map(({ message_id }) =>
      sendOne(ctx, message_id).catch((err: unknown) =>
        ctx.log.error({ err, messageId: message_id }, 'email send crashed; will retry'),
      ),
    ),
  );
  return claimed.length;
}
