import type { Plan } from '@parley/contract/plans';
import { DAILY_MESSAGE_QUOTA } from '@parley/contract/widget-quota';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { consume } from '../../http/rate-limits.ts';
import { now } from '../../lib/clock.ts';
import * as repo from './widget.repo.ts';

/**
 * Limits of the public widget (docs/widget.md "Limits"):
 * - every POST to a public widget path counts against one budget per client IP
 *   (`WIDGET_RATE_LIMIT_PER_MINUTE`, default 5): `ctx.limits.widget` (http/rate-limits.ts), in
 *   Redis when `REDIS_URL` is set so that all instances share it exactly;
 * - each widget message counts against its assistant's daily quota (Free 200, Pro 5,000,
 *   Enterprise none; the UTC day), in the database.
 */

/**
 * Counts one POST from `ip`; beyond the budget a 429 `rate_limit:widget` with `Retry-After`
 * (and the same wait in `details.retryAfter`, since a cross-origin script cannot read that header
 * without an extra CORS header that docs/widget.md "CORS" does not list).
 */
export function consumeWidgetPost(ctx: AppContext, ip: string): Promise<void> {
  return consume(ctx.limits.widget, ip, 'rate_limit:widget', {
    message: 'Too many requests from this address; retry later',
    retryAfterInBody: true,
  });
}

export type QuotaTicket = { assistantId: string; day: string };

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Counts one message against the assistant's daily quota; over it, 429 `rate_limit:widget` with
 * `details.quota` (the daily limit) and `Retry-After` until 00:00 UTC. A plan without a quota
 * (Enterprise) has nothing to refuse: its message is counted once the turn is stored instead
 * (`uncounted`), in the statement that binds a new conversation to the session where there is one
 * (widget.service.ts), and a refused turn has nothing to give back; undefined then.
 */
export async function countDailyMessage(
  ctx: AppContext,
  assistantId: string,
  plan: Plan,
): Promise<QuotaTicket | undefined> {
  const at = now();
  const day = utcDay(at);
  const limit = DAILY_MESSAGE_QUOTA[plan];
  if (limit === null) return undefined;
  const counted = await repo.countMessage(ctx.db, assistantId, day, limit);
  if (counted === undefined) {
    const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
    const seconds = Math.max(1, Math.ceil((midnight - at.getTime()) / 1000));
    throw new AppError(
      'rate_limit:widget',
      "This assistant has answered its plan's widget messages for today; try again tomorrow",
      { quota: limit, period: 'day', resetsAt: new Date(midnight).toISOString(), retryAfter: seconds },
      { 'Retry-After': String(seconds) },
    );
  }
  return { assistantId, day };
}

/** The message a plan without a quota still has to count, once its turn is stored (or undefined). */
export const uncounted = (assistantId: string, plan: Plan): QuotaTicket | undefined =>
  DAILY_MESSAGE_QUOTA[plan] === null ? { assistantId, day: utcDay(now()) } : undefined;

/** Counts a message without a quota to check (a plan without one, after its turn). */
export const countUnlimited = (ctx: AppContext, ticket: QuotaTicket) =>
  repo.countMessage(ctx.db, ticket.assistantId, ticket.day, null);

/** Gives a counted message back when the turn was refused (e.g. no credits left). */
export const refundDailyMessage = async (ctx: AppContext, ticket: QuotaTicket | undefined) => {
  if (ticket) await repo.uncountMessage(ctx.db, ticket.assistantId, ticket.day);
};
