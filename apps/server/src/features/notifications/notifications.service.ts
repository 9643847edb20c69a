import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './notifications.repo.ts';

export type Notice = { type: string; title: string; body: string };
export type Recipient = { email: string; name: string };

/**
 * In-app notice to every owner and admin of a workspace (docs/accounts.md "Notifications"), written with `tx`
 * so it commits with the change it reports. Returns the recipients so the caller can email them after
 * commit (docs/architecture.md "Rules": no network calls inside a transaction).
 */
export async function notifyWorkspaceAdmins(
  tx: Executor,
  workspaceId: string,
  notice: Notice,
): Promise<Recipient[]> {
  const admins = await repo.workspaceAdmins(tx, workspaceId);
  const at = now();
  await repo.insertNotifications(
    tx,
    admins.map((a) => ({ id: newId('ntf'), userId: a.id, workspaceId, ...notice, createdAt: at })),
  );
  return admins.map((a) => ({ email: a.email, name: a.name }));
}

/** Emails a notice; one failed address never stops the others. Returns how many were sent. */
export async function emailNotice(ctx: AppContext, recipients: Recipient[], notice: Notice): Promise<number> {
  const results = await Promise.allSettled(
    recipients.map((r) => ctx.mail.send({ to: r.email, subject: notice.title, text: `${notice.body}\n` })),
  );
  return results.filter((r) => r.status === 'fulfilled').length;
}

export async function listNotifications(
  ctx: AppContext,
  userId: string,
  q: { limit: number; cursor?: string },
) {
  const rows = await repo.listForUser(ctx.db, userId, q.limit, ctx.cursors.decode(q.cursor));
  return ctx.cursors.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}

export async function readNotification(ctx: AppContext, userId: string, id: string) {
  const row = await repo.markRead(ctx.db, userId, id, now());
  if (!row) throw notFound('Notification');
  return row;
}

export async function readAllNotifications(ctx: AppContext, userId: string) {
  await repo.markAllRead(ctx.db, userId, now());
}
