import type { AppContext } from '../../context.ts';
import type { SmsDeliveryStatus } from '../../db/schema/index.ts';
import { now } from '../../lib/clock.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import {
  type ConversationRow,
  type MessageRow,
  recordMessageUpdated,
} from '../conversations/conversations.service.ts';
import { cutToLength } from './cut.ts';
import * as repo from './sms.repo.ts';
import { provider, statusCallbackUrl, tokenOf } from './sms.service.ts';

/**
 * Replies going out (docs/sms.md "Replies and delivery status"): queued with the message that
 * produced them, sent through the provider at once or by the `sms-send` job with retries, and
 * their delivery status moved forward by the provider's callbacks.
 */

const SEND_LEASE_MS = 60_000;
/** Seconds before each retry of a send the provider could not take (then `failed`). */
const SEND_RETRY_S = [5, 30, 120, 600];

/**
 * Queues a message of an SMS conversation for sending, cut to the configuration's length, and
 * sends it at once; the `sms-send` job retries what could not go out.
 */
export async function queueReply(
  ctx: AppContext,
  input: {
    assistant: Pick<AssistantRow, 'id' | 'workspaceId'>;
    conversationId: string;
    messageId: string;
    to: string;
    text: string;
    maxLength: number;
    statusCallback: string;
  },
  sendNow = true,
) {
  const at = now();
  const queued = await repo.insertOutbound(ctx.db, {
    messageId: input.messageId,
    workspaceId: input.assistant.workspaceId,
    assistantId: input.assistant.id,
    toNumber: input.to,
    body: cutToLength(input.text, input.maxLength),
    statusCallback: input.statusCallback,
    // Leased to this send; if the process dies before it, the job sends it when the lease ends.
    nextAttemptAt: sendNow ? new Date(at.getTime() + SEND_LEASE_MS) : at,
    attempts: sendNow ? 1 : 0,
    createdAt: at,
    updatedAt: at,
  });
  await repo.countSessionReply(ctx.db, input.assistant.workspaceId, input.conversationId, at);
  if (queued && sendNow) await sendOutbound(ctx, queued);
  else if (queued) ctx.jobs.wake('sms-send');
}

/**
 * A person's reply from the inbox (or the v1 API) in an SMS conversation: queued for the
 * `sms-send` job, to the customer's number (docs/sms.md "Replies from the inbox"). The message is
 * stored already; a failure here is logged, never thrown.
 */
export async function deliverAgentReply(ctx: AppContext, conversation: ConversationRow, message: MessageRow) {
  try {
    const [last, found] = await Promise.all([
      repo.lastInboundOf(ctx.db, conversation.workspaceId, conversation.id),
      repo.findForCallback(ctx.db, conversation.assistantId),
    ]);
    if (!last || !found) {
      ctx.log.warn({ conversationId: conversation.id }, 'sms reply not sent: no number or configuration');
      return;
    }
    await queueReply(
      ctx,
      {
        assistant: found.assistant,
        conversationId: conversation.id,
        messageId: message.id,
        to: last.fromNumber,
        text: message.content,
        maxLength: found.config.maxMessageLength,
        statusCallback: statusCallbackUrl(last.publicBase, conversation.assistantId),
      },
      false,
    );
  } catch (err) {
    ctx.log.error({ err, messageId: message.id }, 'sms reply not queued');
  }
}

/** Sends one queued message through the provider, recording its id or why it failed. */
export async function sendOutbound(ctx: AppContext, out: repo.SmsOutboundRow): Promise<void> {
  const found = await repo.findForCallback(ctx.db, out.assistantId);
  const at = now();
  if (!found) {
    await repo.updateOutbound(ctx.db, out.messageId, {
      state: 'failed',
      lastError: 'The SMS configuration was removed',
      updatedAt: at,
    });
    return;
  }
  const { config } = found;
  const result = await provider(ctx).sendMessage(
    { accountSid: config.accountSid, authToken: tokenOf(ctx, config) },
    { from: config.phoneNumber, to: out.toNumber, body: out.body, statusCallback: out.statusCallback },
  );
  if (result.ok) {
    await repo.updateOutbound(ctx.db, out.messageId, {
      state: 'sent',
      providerSid: result.sid,
      deliveryStatus: deliveryStatusOf(result.status) ?? 'queued',
      errorCode: result.errorCode,
      lastError: null,
      updatedAt: now(),
    });
    // Callbacks that came before the provider's answer are applied now.
    for (const e of await repo.statusEventsOf(ctx.db, out.assistantId, result.sid)) {
      const status = deliveryStatusOf(e.status);
      if (status) await applyDeliveryStatus(ctx, out.assistantId, result.sid, status, e.errorCode);
    }
    return;
  }
  const retryIn = SEND_RETRY_S[out.attempts - 1];
  const final = !result.retry || retryIn === undefined;
  ctx.log.warn(
    { messageId: out.messageId, status: result.status, errorCode: result.errorCode, final },
    'sms send failed',
  );
  await repo.updateOutbound(ctx.db, out.messageId, {
    state: final ? 'failed' : 'pending',
    lastError: result.error,
    errorCode: result.errorCode,
    ...(final
      ? { deliveryStatus: 'failed' as const }
      : { nextAttemptAt: new Date(at.getTime() + retryIn * 1000) }),
    updatedAt: at,
  });
}

/** Claims due sends and sends them; returns how many it claimed. */
export async function sendDueBatch(ctx: AppContext, batch: number): Promise<number> {
  const at = now();
  const claimed = await repo.claimOutbound(ctx.db, batch, at, new Date(at.getTime() + SEND_LEASE_MS));
  await Promise.all(
    claimed.map(async ({ message_id }) => {
      const row = await repo.findOutbound(ctx.db, message_id);
      if (row?.state === 'pending') {
        await sendOutbound(ctx, row).catch((err: unknown) =>
          ctx.log.error({ err, messageId: message_id }, 'sms send crashed; will retry'),
        );
      }
    }),
  );
  return claimed.length;
}

const KNOWN: Record<string, SmsDeliveryStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};

/** The provider's status in our five (docs/sms.md "Replies and delivery status"); undefined: not a delivery status. */
export const deliveryStatusOf = (status: string | undefined) =>
  status === undefined ? undefined : KNOWN[status.toLowerCase()];

/**
 * Moves a reply's delivery status forward and, when it moved, records `message.updated` with the
 * new status and error code, in one transaction (docs/sms.md).
 */
export async function applyDeliveryStatus(
  ctx: AppContext,
  assistantId: string,
  providerSid: string,
  status: SmsDeliveryStatus,
  errorCode: string | null,
) {
  await ctx.db.transaction(async (tx) => {
    const moved = await repo.advanceStatus(tx, assistantId, providerSid, status, errorCode, now());
    if (moved) {
      await recordMessageUpdated(tx, moved.messageId, {
        deliveryStatus: moved.deliveryStatus,
        errorCode: moved.errorCode,
      });
    }
  });
}
