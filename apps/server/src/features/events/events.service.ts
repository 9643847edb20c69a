import type { Executor } from '../../db/client.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { EventType } from './event-types.ts';
import {
  anyUndispatched,
  insertEvent,
  lockUndispatched,
  markDispatched,
  type PendingEvent,
} from './events.repo.ts';

export type EventRow = {
  id: string;
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
};

export type NewEvent = { workspaceId: string; type: EventType; data: Record<string, unknown> };

/**
 * The single way to record an event (the outbox, decisions §9): call it with the transaction
 * that makes the change, so a rollback leaves no event and no event exists without its change.
 * The webhook dispatcher (features/webhooks/dispatcher.ts) relays committed rows.
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

export type { PendingEvent };

/** For the outbox relay: lock a batch of undispatched events inside `tx`. */
export function claimUndispatchedEvents(tx: Executor, limit: number): Promise<PendingEvent[]> {
  return lockUndispatched(tx, limit);
}

/** For the outbox relay: the batch has been turned into deliveries (same `tx`). */
export function markEventsDispatched(tx: Executor, ids: string[]): Promise<void> {
  return markDispatched(tx, ids, now());
}

/** For the outbox relay's idle polling: is anything waiting? */
export function hasUndispatchedEvents(db: Executor): Promise<boolean> {
  return anyUndispatched(db);
}
