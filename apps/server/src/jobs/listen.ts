import type pg from 'pg';
import type { Database } from '../db/client.ts';

export const EVENTS_CHANNEL = 'parley_events';
export const SMS_INBOUND_CHANNEL = 'parley_sms_inbound';
export const EMAIL_INBOUND_CHANNEL = 'parley_email_inbound';

/**
 * The channels jobs listen on: the trigger of migration 0001 notifies `parley_events` at the
 * commit of events; a process that stored an inbound SMS or email and does not answer them itself
 * notifies `parley_sms_inbound` (features/sms/sms.callbacks.ts) or `parley_email_inbound`
 * (features/email/email.inbound.ts).
 */
export type Channel = typeof EVENTS_CHANNEL | typeof SMS_INBOUND_CHANNEL | typeof EMAIL_INBOUND_CHANNEL;

export type ListenLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

/** Pause before the next try to listen again: 1 s, 2 s, 4 s, then every 5 s. */
const retryDelayMs = (failures: number) => Math.min(1000 * 2 ** Math.max(0, failures - 1), 5000);

/**
 * Calls `onNotify` on every NOTIFY on `channel` (for `parley_events`: whenever a transaction
 * that inserted events commits). PostgreSQL: one pooled connection held for LISTEN; PGlite: its
 * own listen. Returns the function that stops listening.
 *
 * It never gives up (docs/configuration.md "When PostgreSQL or Redis goes away"): when the
 * connection is lost (a restart, a failover) or cannot be opened, it logs one warning, tries
 * again after 1, 2, 4, then every 5 seconds, and once listening again logs one info line and calls
 * `onNotify` once, for the NOTIFYs sent while it was away. Jobs poll meanwhile, so nothing waits
 * on it. The returned promise resolves after the first try, listening or not.
 */
export async function listen(
  database: Database,
  channel: Channel,
  onNotify: () => void,
  log?: ListenLog,
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, onNotify);
    return () => unlisten();
  }
  const pool = database.pool;
  if (!pool) return async () => undefined;

  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let current: { client: pg.PoolClient; drop: (err?: Error) => void } | undefined;

  const failed = (err: unknown) => {
    failures++;
    if (failures === 1) {
      log?.warn({ err, channel }, 'LISTEN connection lost; jobs poll until it is back');
    }
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void attach();
    }, retryDelayMs(failures));
    retry.unref();
  };

  const attach = async (): Promise<void> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      failed(err);
      return;
    }
    let dropped = false;
    const onError = (err: Error) => drop(err);
    const onEnd = () => drop(new Error('the LISTEN connection ended'));
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      client.off('notification', onNotify);
      client.off('error', onError);
      client.off('end', onEnd);
      if (current?.client === client) current = undefined;
      // A connection that failed is destroyed, a healthy one goes back to the pool.
      client.release(err);
      if (err && !stopped) failed(err);
    };
    client.on('notification', onNotify);
    client.on('error', onError);
    client.on('end', onEnd);
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      drop(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (dropped) return;
    if (stopped) {
      await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
      drop();
      return;
    }
    current = { client, drop };
    if (failures > 0) {
      failures = 0;
      log?.info({ channel }, 'LISTEN is back');
      onNotify();
    }
  };

  await attach();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    retry = undefined;
    const held = current;
    if (!held) return;
    held.client.off('notification', onNotify);
    await held.client.query(`UNLISTEN ${channel}`).catch(() => undefined);
    held.drop();
  };
}
