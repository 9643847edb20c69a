import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { sendDueBatch } from './sms.outbound.ts';
import { answerInboundBatch, endIdleSessions } from './sms.pipeline.ts';

const INBOUND_BATCH = 20;
const SEND_BATCH = 50;
const SWEEP_BATCH = 100;

/**
 * Answers the inbound messages stored at acknowledgement (jobs/catalog.ts `sms-inbound`): each
 * the oldest unanswered one of its sender, leased, so a crash between the acknowledgement and
 * the reply leaves the message to be answered when the lease ends (docs/sms.md "Inbound messages").
 */
export function smsInboundJob(ctx: AppContext): Job {
  return { step: async () => (await answerInboundBatch(ctx, INBOUND_BATCH)) > 0 };
}

/** Sends what could not go out at once, with retries (jobs/catalog.ts `sms-send`). */
export function smsSendJob(ctx: AppContext): Job {
  return { step: async () => (await sendDueBatch(ctx, SEND_BATCH)) > 0 };
}

/** Ends SMS sessions idle past their timeout (jobs/catalog.ts `sms-sessions`). */
export function smsSessionsJob(ctx: AppContext): Job {
  return { step: async () => (await endIdleSessions(ctx, SWEEP_BATCH)) === SWEEP_BATCH };
}
