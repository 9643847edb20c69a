import { z } from 'zod';
import { idParam } from './envelope.ts';
import { offsetQuery } from './pagination.ts';

/** Request and response shapes of tickets (docs/contacts-and-tickets.md "Endpoints"). */

export const TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

const subject = z.string().trim().min(1).max(300);
const description = z.string().trim().max(20_000);
const status = z.enum(TICKET_STATUSES);
const priority = z.enum(TICKET_PRIORITIES);

/** New tickets are `open`: the status is changed afterwards (PATCH). */
export const createTicketBody = z.strictObject({
  subject,
  description: description.optional(),
  priority: priority.optional(),
  contactId: idParam.nullable().optional(),
  conversationId: idParam.nullable().optional(),
  assigneeId: idParam.nullable().optional(),
});

/** `conversationId` is fixed at creation. */
export const updateTicketBody = z.strictObject({
  subject: subject.optional(),
  description: description.optional(),
  status: status.optional(),
  priority: priority.optional(),
  contactId: idParam.nullable().optional(),
  assigneeId: idParam.nullable().optional(),
});

export const ticketListQuery = offsetQuery
  .extend({
    status: status.optional(),
    priority: priority.optional(),
    contactId: idParam.optional(),
    conversationId: idParam.optional(),
    assigneeId: idParam.optional(),
    unassigned: z.enum(['true', 'false']).optional(),
  })
  .strict();

export const ticketSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  status,
  priority,
  contactId: z.string().nullable(),
  conversationId: z.string().nullable(),
  assigneeId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
});
