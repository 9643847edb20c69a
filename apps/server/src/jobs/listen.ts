import pg from 'pg';
import type { Database } from '../db/client.ts';

export const EVENTS_CHANNEL = 'parley_events';
export const SMS_INBOUND_CHANNEL = 'parley_sms_inbound';
export const EMAIL_INBOUND_CHANNEL = 'parley_email_inbound';
export const SESSIONS_CHANNEL = 'parley_sessions';

/**
 * The channels jobs listen on: the trigger of migration 0001 notifies `parley_events` at the
 * commit of events; a process that stored an inbound SMS or email and does not answer them itself
 * notifies `parley_sms_inbound` (features/sms/sms.callbacks.ts) or `parley_email_inbound`
 * (features/email/email.inbound.ts); the trigger of migration 0038 notifies `parley_sessions`, with
 * the user's id, when a session is deleted or changed (features/auth/session-cache.ts).
 */
export type Channel =
  | typeof EVENTS_CHANNEL
  | typeof SMS_INBOUND_CHANNEL
  | typeof EMAIL_INBOUND_CHANNEL
  | typeof SESSIONS_CHANNEL;

export type ListenLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

/** Pause before the next try to listen again: 1 s, 2 s, 4 s, then every 5 s. */
const retryDelayMs = (failures: number) => Math.min(1000 * 2 ** Math.max(0, failures - 1), 5000);

export type ListenOptions = {
  log?: ListenLog;
  /** Hears whether it is listening: true once LISTEN is in place (again), false when it is lost or cannot be opened. */
  onState?: (listening: boolean) => void;
  /**
   * A connection of its own beside the pool instead of one of the pool's: for a listener that
   * lives as long as the app, so that closing the database (whose pool waits for every
   * connection it lent) does not wait for the app to stop it.
   */
  ownConnection?: boolean;
};

/**
 * Calls `onNotify` on every NOTIFY on `channel`, with its payload (for `parley_events`: whenever a
 * transaction that inserted events commits). PostgreSQL: one connection held for LISTEN, the
 * pool's unless `ownConnection`; PGlite: its own listen. Returns the function that stops listening.
 *
 * It never gives up (docs/configuration.md "When PostgreSQL or Redis goes away"): when the
 * connection is lost (a restart, a failover) or cannot be opened, it logs one warning, tries
 * again after 1, 2, 4, then every 5 seconds, and once listening again logs one info line and calls
 * `onNotify` once without a payload, for the NOTIFYs sent while it was away. Meanwhile jobs poll
 * and the session cache holds nothing, so nothing waits on it. The returned promise resolves after
 * the first try, listening or not.
 */
export async function listen(
  database: Database,
  channel: Channel,
  onNotify: (payload?: string) => void,
  { log, onState, ownConnection = false }: ListenOptions = {},
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, (payload) => onNotify(payload));
    onState?.(true);
    // Nothing to stop on a database already closed (an app closed after its database).
    return () => unlisten().catch(() => undefined);
  }
  const pool = database.pool;
  if (!pool) return async () => undefined;

  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let current: { client: pg.ClientBase; drop: (err?: Error) => void } | undefined;
  /** A connection, and how to give it back (a failed one is destroyed, a healthy one returns to the pool). */
  const connect = async (): Promise<{ client: pg.ClientBase; giveBack: (err?: Error) => void }> => {
    if (!ownConnection) {
      const client = await pool.connect();
      return { client, giveBack: (err) => client.release(err) };
    }
    const client = new pg.Client(pool.options);
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return { client, giveBack: () => void client.end().catch(() => undefined) };
  };

  const heard = (msg: pg.Notification) => {
    if (msg.channel === channel) onNotify(msg.payload);
  };
  const failed = (err: unknown) => {
    failures++;
    onState?.(false);
    if (failures === 1) {
      log?.warn({ err, channel }, 'LISTEN connection lost; listening again once it is back');
    }
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void attach();
    }, retryDelayMs(failures));
    retry.unref();
  };

  const attach = async (): Promise<void> => {
    let client: pg.ClientBase;
    let giveBack: (err?: Error) => void;
    try {
      ({ client, giveBack } = await connect());
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
      client.off('notification', heard);
      client.off('error', onError);
      client.off('end', onEnd);
      if (current?.client === client) current = undefined;
      giveBack(err);
      if (err && !stopped) failed(err);
    };
    client.on('notification', heard);
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
    onState?.(true);
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
    held.client.off('notification', heard);
    await held.client.query(`UNLISTEN ${channel}`).catch(() => undefined);
    held.drop();
  };
}
