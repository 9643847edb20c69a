import type { Database } from '../db/client.ts';

export const EVENTS_CHANNEL = 'parley_events';

/**
 * Calls `onNotify` whenever a transaction that inserted events commits (the trigger in
 * migration 0001). PostgreSQL: one pooled connection held for LISTEN; PGlite: its own listen.
 * Returns the function that stops listening. Polling stays as the fallback if this fails.
 */
export async function listenForEvents(
  database: Database,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(EVENTS_CHANNEL, onNotify);
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
  await client.query(`LISTEN ${EVENTS_CHANNEL}`);
  return async () => {
    if (released) return;
    client.off('notification', onNotify);
    await client.query(`UNLISTEN ${EVENTS_CHANNEL}`).catch(() => undefined);
    release();
  };
}
