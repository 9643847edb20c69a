import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../http/errors.ts';
import { addDays, now } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import type { MailMessage } from '../../providers/mail/mailer.ts';
import { notifyEmailOwner } from '../notifications/notifications.service.ts';
import { invitationNotice } from '../notifications/templates/invitation.ts';
import * as repo from './invitations.repo.ts';
import { findUserEmailAndName, isMemberByEmail } from './members.repo.ts';
import { joinWorkspace } from './members.service.ts';

export const INVITATION_DAYS = 7;

type AssignableRole = 'admin' | 'member' | 'guest';

const toInvitation = (row: repo.InvitationRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const inviteUrl = (baseUrl: string, token: string) => `${baseUrl}/invite/${token}`;

/**
 * docs/workspaces.md "Invitations": invites an email with a role. A second invitation for an email with one
 * pending is a 409 (revoke, then invite again, to re-send); an expired one is replaced silently. The
 * token is random and stored only as its SHA-256. The email goes out after the commit and a
 * failure to send is reported to `onMailError`, never to the caller: the link is in the response.
 */
export async function createInvitation(
  ctx: AppContext,
  workspaceId: string,
  inviterId: string,
  input: { email: string; role: AssignableRole },
  opts: { baseUrl: string; onMailError: (err: unknown) => void },
) {
  const token = randomToken('', 32);
  const at = now();
  let mail: MailMessage;
  let row: repo.InvitationRow;
  try {
    ({ row, mail } = await ctx.db.transaction(async (tx) => {
      if (await isMemberByEmail(tx, workspaceId, input.email)) {
        throw conflict('This person is already a member of the workspace', { email: 'Already a member' });
      }
      if (await repo.findPendingByEmail(tx, workspaceId, input.email, at)) throw pendingConflict();
      await repo.deleteExpiredForEmail(tx, workspaceId, input.email, at);
      const created = await repo.insertInvitation(tx, {
        id: newId('inv'),
        workspaceId,
        email: input.email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: inviterId,
        expiresAt: addDays(at, INVITATION_DAYS),
        createdAt: at,
      });
      const wsName = (await repo.workspaceName(tx, workspaceId)) ?? 'a workspace';
      const inviter = await findUserEmailAndName(tx, inviterId);
      // An invitee who already has an account also sees it in the app (docs/notifications.md "Kinds");
      // the invitation email below goes out whatever their preferences, as it carries the link.
      await notifyEmailOwner(
        tx,
        input.email,
        workspaceId,
        invitationNotice({ name: wsName }, input.role, inviter?.name),
      );
      return { row: created, mail: invitationMail(created, wsName, inviter?.name, opts.baseUrl, token) };
    }));
  } catch (err) {
    // Two concurrent invitations for one email: the partial unique index lets one through.
    if (isUniqueViolation(err)) throw pendingConflict();
    throw err;
  }
  try {
    await ctx.mail.send(mail);
  } catch (err) {
    opts.onMailError(err);
  }
  return { ...toInvitation(row), inviteUrl: inviteUrl(opts.baseUrl, token) };
}

const pendingConflict = () =>
  conflict('An invitation for this email is already pending; revoke it to send a new one', {
    email: 'Invitation pending',
  });

function invitationMail(
  row: repo.InvitationRow,
  workspace: string,
  inviter: string | undefined,
  baseUrl: string,
  token: string,
): MailMessage {
  const who = inviter ? `${inviter} invited you` : 'You are invited';
  return {
    to: row.email,
    subject: `Join ${workspace} on Parley`,
    text: [
      `${who} to join the workspace "${workspace}" on Parley as ${row.role}.`,
      '',
      `Accept the invitation: ${inviteUrl(baseUrl, token)}`,
      '',
      `The link expires on ${row.expiresAt.toISOString()}. Sign in with ${row.email} to accept it.`,
    ].join('\n'),
  };
}

export async function listInvitations(ctx: AppContext, workspaceId: string, limit: number, offset: number) {
  const { rows, total } = await repo.listPending(ctx.db, workspaceId, now(), limit, offset);
  return { data: rows.map(toInvitation), total, limit, offset };
}

export async function revokeInvitation(ctx: AppContext, workspaceId: string, id: string) {
  if (!(await repo.deletePending(ctx.db, workspaceId, id))) throw notFound('Invitation');
}

/**
 * docs/workspaces.md "Invitations": the signed-in invitee (the invited email, else 403) joins with the
 * invited role. Unknown, expired and already used tokens are all 404. The claim, the membership and
 * `member.joined` share one transaction.
 */
export async function acceptInvitation(ctx: AppContext, userId: string, token: string) {
  const at = now();
  const invitation = await repo.findLiveByTokenHash(ctx.db, sha256Hex(token), at);
  if (!invitation) throw notFound('Invitation');
  const user = await findUserEmailAndName(ctx.db, userId);
  if (!user) throw unauthorized('Account no longer exists');
  if (user.email.toLowerCase() !== invitation.email) {
    throw forbidden('This invitation was sent to a different email address; sign in with that address');
  }
  const role = invitation.role as AssignableRole;
  const workspaceId = invitation.workspaceId;
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.claim(tx, workspaceId, invitation.id, at))) throw notFound('Invitation');
    if (!(await joinWorkspace(tx, { workspaceId, userId, role, joinedAt: at }))) {
      throw conflict('You are already a member of this workspace');
    }
  });
  return { workspaceId, role };
}
