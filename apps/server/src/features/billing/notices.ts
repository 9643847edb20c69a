import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { emailLater, notifyWorkspaceAdmins, type Recipient } from '../notifications/notifications.service.ts';
import type { Notice } from '../notifications/templates/types.ts';

/** Tells a workspace's owners and admins `notice`, inside the change's transaction. */
export type NotifyAdmins = (workspaceId: string, notice: Notice) => Promise<void>;

/**
 * Billing's one collect-then-email flow (docs/billing.md "Plan lifecycle", "Stripe webhooks"):
 * `work` runs in one transaction and tells admins through `notify`, which writes the in-app rows in
 * that transaction; the emails go out after commit, not awaited (docs/architecture.md "Rules": no
 * network call inside a transaction), and only for a change that committed. The trial end and its
 * reminder, and Stripe's failed payments, all come here.
 */
export async function withAdminNotices<T>(
  ctx: AppContext,
  work: (tx: Executor, notify: NotifyAdmins) => Promise<T>,
): Promise<T> {
  const mails: Array<{ workspaceId: string; notice: Notice; recipients: Recipient[] }> = [];
  const result = await ctx.db.transaction((tx) =>
    work(tx, async (workspaceId, notice) => {
      mails.push({ workspaceId, notice, recipients: await notifyWorkspaceAdmins(tx, workspaceId, notice) });
    }),
  );
  for (const m of mails) emailLater(ctx, m.recipients, m.notice, { workspaceId: m.workspaceId });
  return result;
}
