import type { Executor } from '../../db/client.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { EventType } from './event-types.ts';
import { insertEvent } from './events.repo.ts';

export type NewEvent = { workspaceId: string; type: EventType; data: Record<string, unknown> };

/**
 * The single way to record an event (the outbox, decisions §9): call it with the transaction
 * that makes the change, so a rollback leaves no event and no event exists without its change.
 */
export async function recordEvent(tx: Executor, event: NewEvent) {
  return insertEvent(tx, { id: newId('evt'), ...event, createdAt: now() });
}
