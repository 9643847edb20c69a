import type { Executor } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';

export async function insertEvent(db: Executor, row: typeof events.$inferInsert) {
  const [event] = await db.insert(events).values(row).returning();
  return event!;
}
