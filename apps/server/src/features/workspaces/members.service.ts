import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Role } from '../../db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { inboxChannel } from '../conversations/conversations.service.ts';
import { recordEvent } from '../events/events.service.ts';
import { assignSoon } from '../inbox/auto-assign.ts';
import * as repo from './members.repo.ts';
import { lockWorkspace, setRole } from './workspaces.repo.ts';

type Caller = { userId: string; role: Role };

/**
 * Who may be assigned a conversation or a ticket, the one rule (docs/decisions/0018-inbox.md
 * "Choices where the interface was silent", assignees answer): owners, admins and members; a
 * guest cannot reply, so cannot be assigned.
 * The refusal in words for the field's 400, or null when `userId` may be assigned.
 */
export async function assigneeRefusal(
  db: Executor,
  workspaceId: string,
  userId: string,
): Promise<string | null> {
  const role = await repo.memberRoleOf(db, workspaceId, userId);
  if (!role) return 'Not a member of this workspace';
  return role === 'guest' ? 'Guests cannot be assigned' : null;
}

/**
 * Adds someone to a workspace with `member.joined`, in the caller's transaction (an accepted
 * invitation, a first sign-in through SSO); false when they already are a member.
 */
export async function joinWorkspace(
  tx: Executor,
  member: { workspaceId: string; userId: string; role: 'admin' | 'member' | 'guest'; joinedAt: Date },
): Promise<boolean> {
  if (!(await repo.insertMemberIfAbsent(tx, member))) return false;
  const { workspaceId, userId, role } = member;
  await recordEvent(tx, { workspaceId, type: 'member.joined', data: { userId, workspaceId, role } });
  return true;
}

const toMember = (m: repo.MemberRow) => ({
  userId: m.userId,
  name: m.name,
  email: m.email,
  role: m.role as Role,
  joinedAt: m.joinedAt.toISOString(),
  availability: m.availability,
});

/** The caller's own availability in the workspace (docs/workspaces.md "Availability"). */
export async function setMyAvailability(
  ctx: AppContext,
  workspaceId: string,
  userId: string,
  status: repo.MemberRow['availability'],
) {
  if (!(await repo.setAvailability(ctx.db, workspaceId, userId, status))) throw notFound('Workspace');
  // Every open inbox hears it; someone now online may take what waits (docs/inbox.md "Auto-assignment").
  await ctx.fanout
    .publish(inboxChannel(workspaceId), { type: 'member.updated', member: { userId, availability: status } })
    .catch(() => undefined);
  if (status === 'online') await assignSoon(ctx, workspaceId);
  return { status };
}

export async function listMembers(ctx: AppContext, workspaceId: string, limit: number, offset: number) {
  const { rows, total } = await repo.listMembers(ctx.db, workspaceId, limit, offset);
  return { data: rows.map(toMember), total, limit, offset };
}

/**
 * docs/workspaces.md "Members": owners and admins change roles; the owner's role is never changed here (only
 * transfer-ownership moves it), and `owner` is never assigned (the body schema refuses it).
 */
export async function changeRole(
  ctx: AppContext,
  workspaceId: string,
  caller: Caller,
  userId: string,
  role: Exclude<Role, 'owner'>,
) {
  return ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const target = await repo.findMember(tx, workspaceId, userId, true);
    if (!target) throw notFound('Member');
    if (target.role === 'owner') {
      if (caller.role !== 'owner') throw forbidden("Only the owner can change the owner's role");
      throw badRequest("The owner's role cannot be changed; transfer ownership first", {
        userId: 'Is the owner',
      });
    }
    if (target.role !== role) await setRole(tx, workspaceId, userId, role);
    return toMember({ ...target, role });
  });
}

/**
 * docs/workspaces.md "Members": owners and admins remove others; anyone may leave. The owner can neither
 * leave nor be removed until ownership is transferred. `member.left` is recorded in the same
 * transaction as the removal (docs/webhooks.md "How events are recorded").
 */
export async function removeMember(ctx: AppContext, workspaceId: string, caller: Caller, userId: string) {
  const self = userId === caller.userId;
  await ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const target = await repo.findMember(tx, workspaceId, userId, true);
    if (!target) throw notFound('Member');
    if (target.role === 'owner') {
      if (!self) throw forbidden('The owner cannot be removed');
      throw conflict('The owner cannot leave the workspace; transfer ownership first');
    }
    await repo.deleteMember(tx, workspaceId, userId);
    await recordEvent(tx, {
      workspaceId,
      type: 'member.left',
      data: { userId, workspaceId, role: target.role },
    });
  });
}
