import { NOTICE_KINDS, type NoticeKind } from '@parley/contract/notifications';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './notifications.repo.ts';
import type { Notice } from './templates/types.ts';

export type { Notice, NoticeKind };
export { NOTICE_KINDS };

export type Recipient = { email: string; name: string };

type Person = {
  id: string;
  email: string;
  name: string;
  emailOff: string[] | null;
  inAppOff: string[] | null;
};

/**
 * Writes the in-app notice for each person who has not turned this kind off in the app, with `tx`
 * so it commits with the change it reports; returns those who still want it by email, for the
 * caller to mail after commit (docs/notifications.md "Preferences").
 */
async function notifyPeople(
  tx: Executor,
  people: Person[],
  workspaceId: string | null,
  notice: Notice,
): Promise<Recipient[]> {
  const at = now();
  await repo.insertNotifications(
    tx,
    people
      .filter((p) => !p.inAppOff?.includes(notice.type))
      .map((p) => ({ id: newId('ntf'), userId: p.id, workspaceId, ...notice, createdAt: at })),
  );
  return people
    .filter((p) => !p.emailOff?.includes(notice.type))
    .map((p) => ({ email: p.email, name: p.name }));
}

/**
 * In-app notice to every owner and admin of a workspace (docs/notifications.md "Kinds"), written with
 * `tx` so it commits with the change it reports. Returns the email recipients so the caller can
 * email them after commit (docs/architecture.md "Rules": no network calls inside a transaction).
 */
export async function notifyWorkspaceAdmins(
  tx: Executor,
  workspaceId: string,
  notice: Notice,
): Promise<Recipient[]> {
  return notifyPeople(tx, await repo.workspaceAdmins(tx, workspaceId), workspaceId, notice);
}

/** In-app notice to one member of a workspace (a conversation's new assignee). */
export async function notifyMember(
  tx: Executor,
  workspaceId: string,
  userId: string,
  notice: Notice,
): Promise<Recipient[]> {
  const person = await repo.memberToNotify(tx, workspaceId, userId);
  return person ? notifyPeople(tx, [person], workspaceId, notice) : [];
}

/** In-app notice to the account with this email, if there is one (an invitee). */
export async function notifyEmailOwner(
  tx: Executor,
  email: string,
  workspaceId: string,
  notice: Notice,
): Promise<Recipient[]> {
  const person = await repo.userByEmail(tx, email);
  return person ? notifyPeople(tx, [person], workspaceId, notice) : [];
}

/** Emails a notice; one failed address never stops the others. Returns how many were sent. */
export async function emailNotice(ctx: AppContext, recipients: Recipient[], notice: Notice): Promise<number> {
  const footer =
    '\n\n--\nYou get this because of your role in the workspace. Turn this kind of email off under ' +
    'Account › Notifications.\n';
  const results = await Promise.allSettled(
    recipients.map((r) =>
      ctx.mail.send({ to: r.email, subject: notice.title, text: `${notice.body}${footer}` }),
    ),
  );
  return results.filter((r) => r.status === 'fulfilled').length;
}

/**
 * Emails after commit without holding up the caller; failures are logged to `ctx.log`
 * (work off the request path has no request to carry them).
 */
export function emailLater(ctx: AppContext, recipients: Recipient[], notice: Notice, context: object) {
  if (recipients.length === 0) return;
  void emailNotice(ctx, recipients, notice)
    .then((n) => {
      if (n < recipients.length) {
        ctx.log.error(
          { ...context, type: notice.type, failed: recipients.length - n },
          'notice email failed',
        );
      }
    })
    .catch((err) => ctx.log.error({ err, ...context, type: notice.type }, 'notice email failed'));
}

export async function listNotifications(
  ctx: AppContext,
  userId: string,
  q: { limit: number; cursor?: string },
) {
  // A user's notifications span their workspaces: the list is bound to the user alone.
  const cursor = ctx.cursors.open({ list: 'notifications', workspaceId: null, parentId: userId }, q.cursor);
  const rows = await repo.listForUser(ctx.db, userId, q.limit, cursor.after);
  return cursor.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}

export async function unreadNotifications(ctx: AppContext, userId: string) {
  return { unread: await repo.unreadCount(ctx.db, userId) };
}

export async function readNotification(ctx: AppContext, userId: string, id: string) {
  const row = await repo.markRead(ctx.db, userId, id, now());
  if (!row) throw notFound('Notification');
  return row;
}

export async function readAllNotifications(ctx: AppContext, userId: string) {
  await repo.markAllRead(ctx.db, userId, now());
}

export type Preferences = Record<NoticeKind, { inApp: boolean; email: boolean }>;

function toPreferences(row: { emailOff: string[]; inAppOff: string[] } | undefined): Preferences {
  return Object.fromEntries(
    NOTICE_KINDS.map((k) => [k, { inApp: !row?.inAppOff.includes(k), email: !row?.emailOff.includes(k) }]),
  ) as Preferences;
}

export async function getPreferences(ctx: AppContext, userId: string): Promise<Preferences> {
  return toPreferences(await repo.findPreferences(ctx.db, userId));
}

/** Merges a partial change (kinds left out keep their setting) and returns the whole set. */
export async function updatePreferences(
  ctx: AppContext,
  userId: string,
  change: Partial<Record<NoticeKind, { inApp?: boolean; email?: boolean }>>,
): Promise<Preferences> {
  return ctx.db.transaction(async (tx) => {
    const current = toPreferences(await repo.findPreferences(tx, userId));
    for (const [kind, c] of Object.entries(change) as [NoticeKind, { inApp?: boolean; email?: boolean }][]) {
      current[kind] = { inApp: c.inApp ?? current[kind].inApp, email: c.email ?? current[kind].email };
    }
    await repo.savePreferences(
      tx,
      userId,
      {
        emailOff: NOTICE_KINDS.filter((k) => !current[k].email),
        inAppOff: NOTICE_KINDS.filter((k) => !current[k].inApp),
      },
      now(),
    );
    return current;
  });
}
