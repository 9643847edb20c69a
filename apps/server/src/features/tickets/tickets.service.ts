import type { AppContext } from '../../context.ts';
import type { Plan, TicketPriority } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../events/events.service.ts';
import { PLAN_QUOTAS } from '../workspaces/plan.ts';
import * as repo from './tickets.repo.ts';

export type { TicketRow } from './tickets.repo.ts';

export type NewTicket = {
  subject: string;
  description?: string;
  priority?: TicketPriority;
  contactId?: string | null;
  conversationId?: string | null;
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

/**
 * Opens a ticket within the plan's quota (docs/api.md "Plans": Free 50, Pro 1,000) and records
 * `ticket.created`. The quota check and the insert share one transaction under a per-workspace
 * lock, so concurrent creations cannot pass the quota together.
 */
export async function createTicket(
  ctx: AppContext,
  workspace: { workspaceId: string; plan: Plan },
  input: NewTicket,
) {
  const quota = PLAN_QUOTAS[workspace.plan].tickets;
  return ctx.db.transaction(async (tx) => {
    if (quota !== null) {
      await repo.lockWorkspaceTickets(tx, workspace.workspaceId);
      if ((await repo.countTickets(tx, workspace.workspaceId)) >= quota) {
        throw new AppError('plan_limit_reached', `This plan includes ${quota} support tickets`, {
          resource: 'tickets',
          limit: quota,
        });
      }
    }
    const at = now();
    const row = await repo.insertTicket(tx, {
      id: newId('tkt'),
      workspaceId: workspace.workspaceId,
      subject: input.subject,
      description: input.description ?? '',
      priority: input.priority ?? 'medium',
      contactId: input.contactId ?? null,
      conversationId: input.conversationId ?? null,
      createdAt: at,
      updatedAt: at,
    });
    await recordEvent(tx, {
      workspaceId: workspace.workspaceId,
      type: 'ticket.created',
      data: toTicket(row),
    });
    return row;
  });
}
