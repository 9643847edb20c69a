import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findTicket, type TicketRow } from './tickets.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A ticket of the workspace (`:ticketId`). */
    ticket: TicketRow;
  }
}

export const ticketResource = defineResource({
  kind: 'ticket',
  param: 'ticketId',
  notFound: resourceNotFound('Ticket'),
  load: (ctx, { tenant }, id) => findTicket(ctx.db, tenant.workspaceId, id),
});
