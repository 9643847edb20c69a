import type { EventType } from '@parley/contract/events';
import type { Executor } from '../../db/client.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { insertEvent } from './events.repo.ts';

export type EventRow = {
  id: string;
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
};

export type NewEvent = { workspaceId: string; type: EventType; data: Record<string, unknown> };

/**
 * The single way to record an event (the outbox, docs/webhooks.md "How events are recorded"): call it with
 * the transaction that makes the change, so a rollback leaves no event and no event exists without its
 * change. The outbox relay (features/webhooks/webhooks.jobs.ts) relays committed rows.
 */
export async function recordEvent(tx: Executor, event: NewEvent) {
  return insertEvent(tx, eventRow(event));
}

/**
 * The row recordEvent would insert, for a repository that writes the change and its event in one
 * statement (a data-modifying WITH): the same guarantee without a transaction.
 */
export function eventRow(event: NewEvent, at = now()): EventRow {
  return { id: newId('evt'), ...event, createdAt: at };
}
