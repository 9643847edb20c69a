import type { Database } from '../db/client.ts';

export const EVENTS_CHANNEL = 'parley_events';

/** The channels jobs listen on: the trigger of migration 0001 notifies this one at commit. */
export type Channel = typeof EVENTS_CHANNEL;

/**
 * Calls `onNotify` on every NOTIFY on `channel` (for `parley_events`: whenever a transaction
 * that inserted events commits). PostgreSQL: one pooled connection held for LISTEN; PGlite: its
 * own listen. Returns the function that stops listening. Polling stays as the fallback if this fails.
 */
export async function listen(
  database: Database,
  channel: Channel,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, onNotify);
    return () => unlisten();
  }
  if (!database.pool) return async () => undefined;
  const client = await database.pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.release(err);
  };
  client.on('notification', onNotify);
  client.on('error', (err) => release(err));
  await client.query(`LISTEN ${channel}`);
  return async () => {
    if (released) return;
    client.off('notification', onNotify);
    await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
    release();
  };
}
