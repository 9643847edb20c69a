import type { ticketSchema } from '@parley/contract/tickets';
import type { z } from 'zod';

/** Tickets as the API answers them (docs/contacts-and-tickets.md "Tickets"; type-only). */
export type Ticket = z.output<typeof ticketSchema>;
export type TicketStatus = Ticket['status'];
export type TicketPriority = Ticket['priority'];

export const ticketsPath = (ws: string) => `/api/workspaces/${ws}/tickets`;

/** Keyed by the server's own values, so one added there fails the typecheck here. */
export const STATUS_WORDS: Record<TicketStatus, string> = {
  open: 'Open',
  pending: 'Pending',
  resolved: 'Resolved',
  closed: 'Closed',
};

export const PRIORITY_WORDS: Record<TicketPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};
