import type { AppContext } from '../../context.ts';
import { emailNotice, notifyWorkspaceAdmins } from '../notifications/notifications.service.ts';
import { creditsNotice } from '../notifications/templates/credits.ts';
import { warningThreshold } from './allowance.ts';
import * as repo from './credits.repo.ts';

/**
 * Credit alerts (docs/credits.md "Alerts"): at 80% and at 100% of the limit, once per period
 * each, to owners and admins, in the app and by email. The claim (a conditional UPDATE) and the
 * in-app rows commit together; the email goes out after commit without holding up the reply.
 * Failures are logged to `ctx.log` (the app's logger: no request is there to carry them).
 */

export type AlertLevel = 80 | 100;

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
      const notice = creditsNotice(level, { name: ws?.name ?? '' }, claimed.used, limit, claimed.periodEnd);
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
