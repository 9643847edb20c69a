import type { AppContext } from '../../context.ts';
import { addDays, now } from '../../lib/clock.ts';
import { decrypt } from '../../lib/crypto.ts';
import { postOutbound } from '../../lib/outbound/http.ts';
import { httpStatusReason } from '../../lib/outbound/reasons.ts';
import { emailNotice, notifyWorkspaceAdmins } from '../notifications/notifications.service.ts';
import { webhookDisabledNotice } from '../notifications/templates/webhook-disabled.ts';
import * as queue from './queue.repo.ts';
import { signatureHeaders } from './signing.ts';
import type { SuccessBatcher } from './success-batcher.ts';
import { failPendingDeliveries } from './webhooks.repo.ts';

/**
 * docs/webhooks.md "Auto-disable": more than 50 consecutive failed attempts within 7 days disable a webhook.
 */
export const AUTO_DISABLE_AFTER = 50;
const FAILURE_WINDOW_DAYS = 7;

/**
 * Envelope A `{id, event, timestamp, workspaceId, data}`; B the same without `id`
 * (docs/webhooks.md "Two families: Format A and Format B").
 */
export function envelope(d: queue.ClaimedDelivery): string {
  const base = {
    event: d.event,
    timestamp: d.eventCreatedAt.toISOString(),
    workspaceId: d.workspaceId,
    data: d.data,
  };
  return JSON.stringify(d.format === 'A' ? { id: d.eventId, ...base } : base);
}

export type AttemptLog = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * One attempt of one claimed delivery (docs/webhooks.md "Delivery, retries and replay"): success only on 2xx
 * within the time-out; otherwise the next attempt per the format's schedule, or `failed`.
 */
export async function attemptDelivery(
  ctx: AppContext,
  d: queue.ClaimedDelivery,
  log?: AttemptLog,
  successes?: SuccessBatcher,
): Promise<void> {
  const cfg = ctx.config.webhooks;
  if (!d.active) {
    await queue.finishAttempt(ctx.db, d, {
      status: 'failed',
      nextAttemptAt: null,
      lastError: 'Webhook is inactive',
      updatedAt: now(),
    });
    return;
  }
  const body = envelope(d);
  const secret = decrypt(ctx.config.encryptionKey, d.secretEnc);
  const result = await postOutbound(d.url, body, signatureHeaders(secret, d.eventId, body, now()), {
    timeoutMs: cfg.timeoutMs,
    allowPrivateNetworks: cfg.allowPrivateNetworks,
  });
  // The delivery log shows the reason; what the socket said goes to the server log only.
  if (result.cause !== undefined) {
    log?.warn(
      { webhookId: d.webhookId, deliveryId: d.id, err: result.cause },
      'webhook attempt got no answer',
    );
  }
  const at = now();
  const attempt = d.attempt + 1;
  const ok = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const delays = d.format === 'A' ? cfg.retryDelaysA : cfg.retryDelaysB;
  const delay = delays[attempt - 1];
  const retry = !ok && attempt < d.maxAttempts && delay !== undefined;
  const common = {
    attempt,
    statusCode: result.statusCode ?? null,
    durationMs: result.durationMs,
    lastError: ok ? null : (result.error ?? httpStatusReason(result.statusCode ?? 0)),
    updatedAt: at,
  };
  if (ok) {
    const done = successes
      ? await successes.record({
          id: d.id,
          lockedUntil: d.lockedUntil,
          attempt,
          statusCode: result.statusCode!,
          durationMs: result.durationMs,
          at,
        })
      : await queue.finishAttempt(ctx.db, d, { ...common, status: 'success', nextAttemptAt: null });
    // A success ends the failure streak (docs/webhooks.md "Auto-disable").
    if (done && d.hasFailures) await queue.resetFailureStreak(ctx.db, d.webhookId);
    return;
  }
  const done = await queue.finishAttempt(ctx.db, d, {
    ...common,
    status: retry ? 'pending' : 'failed',
    nextAttemptAt: retry ? new Date(at.getTime() + delay * 1000) : null,
  });
  if (done) await countFailure(ctx, d, at, log);
}

async function countFailure(ctx: AppContext, d: queue.ClaimedDelivery, at: Date, log?: AttemptLog) {
  const failures = await queue.addFailure(ctx.db, d.webhookId, at, addDays(at, -FAILURE_WINDOW_DAYS));
  if (failures <= AUTO_DISABLE_AFTER) return;
  const notice = webhookDisabledNotice(
    { id: d.webhookId, url: d.url },
    AUTO_DISABLE_AFTER,
    FAILURE_WINDOW_DAYS,
  );
  const recipients = await ctx.db.transaction(async (tx) => {
    const disabled = await queue.disableWebhook(tx, d.webhookId, at);
    if (!disabled) return null; // already inactive: someone else reported it
    await failPendingDeliveries(tx, d.workspaceId, d.webhookId, at);
    return notifyWorkspaceAdmins(tx, d.workspaceId, notice);
  });
  if (!recipients) return;
  log?.warn({ webhookId: d.webhookId, failures }, 'webhook auto-disabled');
  const sent = await emailNotice(ctx, recipients, notice);
  if (sent < recipients.length) log?.error({ webhookId: d.webhookId }, 'some webhook-disabled emails failed');
}
