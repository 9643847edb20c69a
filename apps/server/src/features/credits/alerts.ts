import type { AppContext } from '../../context.ts';
import { emailNotice, type Notice, notifyWorkspaceAdmins } from '../notifications/notifications.service.ts';
import { warningThreshold } from './allowance.ts';
import * as repo from './credits.repo.ts';

/**
 * Credit alerts (docs/credits.md "Alerts"): at 80% and at 100% of the limit, once per period
 * each, to owners and admins, in the app and by email. The claim (a conditional UPDATE) and the
 * in-app rows commit together; the email goes out after commit without holding up the reply.
 * Failures are logged to `ctx.log` (the app's logger: no request is there to carry them).
 */

export type AlertLevel = 80 | 100;

const day = (d: Date) => d.toISOString().slice(0, 10);

function noticeFor(
  level: AlertLevel,
  ws: { name: string },
  used: number,
  limit: number,
  resetsAt: Date,
): Notice {
  if (level === 80) {
    return {
      type: 'credits.warning',
      title: `${ws.name}: 80% of this month's AI credits used`,
      body:
        `The workspace ${ws.name} has used ${used} of its ${limit} monthly AI credits. ` +
        `Credits reset on ${day(resetsAt)} (UTC) without rollover; upgrade the plan for more.`,
    };
  }
  return {
    type: 'credits.exhausted',
    title: `${ws.name}: monthly AI credits used up`,
    body:
      `The workspace ${ws.name} has used all ${limit} of its monthly AI credits. AI replies are paused ` +
      `until the reset on ${day(resetsAt)} (UTC) or an upgrade. Conversations and data are untouched.`,
  };
}

/**
 * Sends the `level` alert of the current period if this caller wins the claim. Never throws: the
 * credit is already reserved (or refused) and the reply must not fail because of a notice.
 */
export async function raiseAlert(
  ctx: AppContext,
  workspaceId: string,
  level: AlertLevel,
  limit: number,
  at: Date,
): Promise<void> {
  try {
    const threshold = level === 100 ? limit : warningThreshold(limit);
    const sent = await ctx.db.transaction(async (tx) => {
      const claimed = await repo.claimAlert(tx, workspaceId, level, threshold, at);
      if (!claimed) return null;
      // The name only for the notice: read when an alert is actually sent.
      const ws = await repo.findWorkspace(tx, workspaceId);
      const notice = noticeFor(level, { name: ws?.name ?? '' }, claimed.used, limit, claimed.periodEnd);
      return { notice, recipients: await notifyWorkspaceAdmins(tx, workspaceId, notice) };
    });
    if (!sent) return;
    // After commit and not awaited: SMTP must not delay the reply (docs/architecture.md "Rules").
    void emailNotice(ctx, sent.recipients, sent.notice)
      .then((n) => {
        if (n < sent.recipients.length) {
          ctx.log.error(
            { workspaceId, level, failed: sent.recipients.length - n },
            'credit alert email failed',
          );
        }
      })
      .catch((err) => ctx.log.error({ err, workspaceId, level }, 'credit alert email failed'));
  } catch (err) {
    ctx.log.error({ err, workspaceId, level }, 'credit alert failed');
  }
}
