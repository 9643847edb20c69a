import type { ticketSchema } from '@parley/contract/tickets';
import type { z } from 'zod';
import { i18n } from '../../i18n/index.ts';

/** Tickets as the API answers them (docs/contacts-and-tickets.md "Tickets"; type-only). */
export type Ticket = z.output<typeof ticketSchema>;
export type TicketStatus = Ticket['status'];
export type TicketPriority = Ticket['priority'];

export const ticketsPath = (ws: string) => `/api/workspaces/${ws}/tickets`;

/** Keyed by the server's own values, so one added there fails the typecheck here. */
const STATUSES: Record<TicketStatus, true> = { open: true, pending: true, resolved: true, closed: true };
const PRIORITIES: Record<TicketPriority, true> = { low: true, medium: true, high: true, urgent: true };

/**
 * Each key's words from the tickets catalog (i18n/en/tickets.ts), read when shown rather than at
 * load, so they are in the dashboard's language of the moment wherever they appear (this page, the
 * inbox's side panel).
 */
function catalogWords<K extends string>(keys: Record<K, true>, word: (key: K) => string): Record<K, string> {
  const words = {} as Record<K, string>;
  for (const key of Object.keys(keys) as K[]) {
    Object.defineProperty(words, key, { enumerable: true, get: () => word(key) });
  }
  return words;
}

export const STATUS_WORDS = catalogWords(STATUSES, (s) => i18n.t(`tickets:status.${s}`));
export const PRIORITY_WORDS = catalogWords(PRIORITIES, (p) => i18n.t(`tickets:priority.${p}`));
