import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { sendDueBatch } from './email.outbound.ts';
import { processInboundBatch } from './email.process.ts';

const INBOUND_BATCH = 10;
const SEND_BATCH = 20;

/**
 * Processes the messages stored at receipt (jobs/catalog.ts `email-inbound`): parsing,
 * authentication, threading, the AI's reply; leased, so a crash leaves the message to another
 * pass (docs/email.md "Inbound by forwarding").
 */
export function emailInboundJob(ctx: AppContext): Job {
  return { step: async () => (await processInboundBatch(ctx, INBOUND_BATCH)) > 0 };
}

/** Sends queued replies by SMTP, with retries (jobs/catalog.ts `email-send`; docs/email.md "Replies"). */
export function emailSendJob(ctx: AppContext): Job {
  return { step: async () => (await sendDueBatch(ctx, SEND_BATCH)) > 0 };
}
