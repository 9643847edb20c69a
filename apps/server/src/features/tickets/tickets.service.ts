import type { Plan } from '@parley/contract/plans';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { TicketPriority, TicketStatus } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../events/events.service.ts';
import { assigneeRefusal } from '../workspaces/members.service.ts';
import { PLAN_QUOTAS } from '../workspaces/plan.ts';
import * as repo from './tickets.repo.ts';

export type { TicketFilter, TicketRow } from './tickets.repo.ts';

export type Workspace = { workspaceId: string; plan: Plan };

export type NewTicket = {
  subject: string;
  description?: string;
  priority?: TicketPriority;
  contactId?: string | null;
  conversationId?: string | null;
  assigneeId?: string | null;
};

/** A change; null clears `contactId` or `assigneeId`. */
export type TicketPatch = {
  subject?: string;
  description?: string;
  status?: TicketStatus;
  priority?: TicketPriority;
  contactId?: string | null;
  assigneeId?: string | null;
};

/**
 * The public shape of a ticket (docs/contacts-and-tickets.md "Tickets"): API responses and `ticket.*` events.
 */
export const toTicket = (t: repo.TicketRow) => ({
  id: t.id,
  subject: t.subject,
  description: t.description,
  status: t.status,
  priority: t.priority,
  contactId: t.contactId,
  conversationId: t.conversationId,
  assigneeId: t.assigneeId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  resolvedAt: t.resolvedAt?.toISOString() ?? null,
});

const executorOf = (db: AppContext | Executor): Executor => ('transaction' in db ? db : db.db);

/**
 * Which conversations a new ticket's `conversationId` may name: `inbox` (the default), those the
 * inbox shows, so that an API key or a member cannot reach a colleague's private internal chat
 * (docs/decisions/0024-private-chats-and-integrations.md); `any`, every one of the workspace, for
 * the assistant's own tool opening a ticket from the very conversation it answers.
 */
export type ConversationReach = 'inbox' | 'any';

/**
 * 400 for references outside the workspace (docs/decisions/0012-contacts-and-tickets.md): a contact,
 * conversation or assignee that is not the workspace's names nothing the ticket could point at. A
 * conversation beyond `reach` gets the same answer as a missing one. The assignee follows the
 * inbox's rule (members.service.ts `assigneeRefusal`): a guest is refused too.
 */
async function checkReferences(
  tx: Executor,
  workspaceId: string,
  refs: { contactId?: string | null; conversationId?: string | null; assigneeId?: string | null },
  reach: ConversationReach = 'inbox',
) {
  const details: Record<string, string> = {};
  if (refs.contactId && !(await repo.contactInWorkspace(tx, workspaceId, refs.contactId))) {
    details.contactId = 'No such contact in this workspace';
  }
  if (
    refs.conversationId &&
    !(await repo.conversationInWorkspace(tx, workspaceId, refs.conversationId, reach === 'inbox'))
  ) {
    details.conversationId = 'No such conversation in this workspace';
  }
  const refusal = refs.assigneeId ? await assigneeRefusal(tx, workspaceId, refs.assigneeId) : null;
  if (refusal) details.assigneeId = refusal;
  if (Object.keys(details).length > 0) throw badRequest('Validation failed', details);
}

/**
 * Opens a ticket (docs/contacts-and-tickets.md "Tickets"): every path that creates one calls this
 * (the v1 API, the dashboard, the widget, the assistant's tool, the inbox). Defaults: status `open`,
 * priority `medium`, description empty. Checks, in order: the references are the workspace's (400),
 * the plan's quota (403 `plan_limit_reached`; Free 50, Pro 1,000). The count and the insert share one
 * transaction under a per-workspace lock, so concurrent creations cannot pass the quota together;
 * `ticket.created` is recorded in it.
 *
 * `db` is the app context (a transaction of its own) or a transaction already open (a savepoint in
 * it, so a refusal leaves the caller's transaction usable).
 */
export async function createTicket(
  db: AppContext | Executor,
  workspace: Workspace,
  input: NewTicket,
  reach: ConversationReach = 'inbox',
): Promise<repo.TicketRow> {
  const { workspaceId } = workspace;
  return executorOf(db).transaction(async (tx) => {
    await checkReferences(tx, workspaceId, input, reach);
    const quota = PLAN_QUOTAS[workspace.plan].tickets;
    if (quota !== null) {
      await repo.lockWorkspaceTickets(tx, workspaceId);
      if ((await repo.countTickets(tx, workspaceId)) >= quota) {
        throw new AppError('plan_limit_reached', `This plan includes ${quota} support tickets`, {
          resource: 'tickets',
          limit: quota,
        });
      }
    }
    const at = now();
    const row = await repo.insertTicket(tx, {
      id: newId('tkt'),
      workspaceId,
      subject: input.subject,
      description: input.description ?? '',
      priority: input.priority ?? 'medium',
      contactId: input.contactId ?? null,
      conversationId: input.conversationId ?? null,
      assigneeId: input.assigneeId ?? null,
      createdAt: at,
      updatedAt: at,
    });
    await recordEvent(tx, { workspaceId, type: 'ticket.created', data: toTicket(row) });
    return row;
  });
}

const PATCHABLE = ['subject', 'description', 'status', 'priority', 'contactId', 'assigneeId'] as const;

/**
 * Changes a ticket (docs/contacts-and-tickets.md "Status"). Fields equal to the current values are no
 * change; a change to a `closed` ticket is a 409 (`closed` is final). `resolvedAt` is set when the
 * status becomes `resolved` and cleared when it goes back to `open` or `pending`. A change records
 * `ticket.updated` (with `previous`, the changed fields' earlier values), then `ticket.resolved` when
 * the status became `resolved`, in the same transaction as the change.
 */
export async function updateTicket(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: TicketPatch,
): Promise<repo.TicketRow> {
  return ctx.db.transaction(async (tx) => {
    const current = await repo.findTicket(tx, workspaceId, id, true);
    if (!current) throw notFound('Ticket');
    const next: Partial<repo.TicketRow> = {};
    const previous: Record<string, unknown> = {};
    for (const key of PATCHABLE) {
      const value = patch[key];
      if (value === undefined || value === current[key]) continue;
      Object.assign(next, { [key]: value });
      previous[key] = current[key];
    }
    if (Object.keys(next).length === 0) return current;
    await checkReferences(tx, workspaceId, { contactId: next.contactId, assigneeId: next.assigneeId });
    if (current.status === 'closed') {
      throw conflict('This ticket is closed; a closed ticket cannot be changed', { status: 'closed' });
    }
    const at = now();
    if (next.status === 'resolved') next.resolvedAt = at;
    else if (next.status === 'open' || next.status === 'pending') next.resolvedAt = null;
    const row = await repo.updateTicket(tx, workspaceId, id, { ...next, updatedAt: at });
    if (!row) throw notFound('Ticket');
    const data = toTicket(row);
    await recordEvent(tx, { workspaceId, type: 'ticket.updated', data: { ...data, previous } });
    if (next.status === 'resolved') await recordEvent(tx, { workspaceId, type: 'ticket.resolved', data });
    return row;
  });
}

export const findTicket = (ctx: AppContext, workspaceId: string, id: string) =>
  repo.findTicket(ctx.db, workspaceId, id);

export const listTickets = (
  ctx: AppContext,
  workspaceId: string,
  filter: repo.TicketFilter,
  page: { limit: number; offset: number },
) => repo.listTickets(ctx.db, workspaceId, filter, page);
