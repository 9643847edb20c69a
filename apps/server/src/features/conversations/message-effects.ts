import { sql } from 'drizzle-orm';
import { languageSignal } from './conversation-language.ts';
import type { MessageRow } from './conversations.repo.ts';

/**
 * What storing a message does to its conversation besides counting it, as SQL for the SET list of
 * the UPDATE in conversations.repo.ts `insertMessageIfStatus` (one statement).
 */

/**
 * What a message does to the SLA clocks (docs/sla.md "Clocks"), in the same statement: a person's
 * reply meets the first and the next response; a customer's message after a person's reply
 * starts a wait for the next one (its due time is set by the breach job).
 */
export function slaOnMessage(message: MessageRow) {
  const at = sql`${message.createdAt.toISOString()}::timestamptz`;
  if (message.role === 'agent') {
    return sql`, sla_first_due_at = null, sla_next_due_at = null, sla_waiting_since = null,
             sla_replied_at = coalesce(sla_replied_at, ${at})`;
  }
  if (message.role === 'user') {
    return sql`, sla_waiting_since = case when status = 'handoff' and sla_replied_at is not null
             then coalesce(sla_waiting_since, ${at}) else sla_waiting_since end`;
  }
  return sql``;
}

/** What a customer's message does to the conversation's language, in the same statement (conversation-language.ts). */
export function languageOnMessage(message: MessageRow) {
  const signal = languageSignal(message);
  if (signal?.detected) return sql`, language = ${signal.detected}`;
  if (signal?.guessed) return sql`, language = coalesce(language, ${signal.guessed})`;
  return sql``;
}
