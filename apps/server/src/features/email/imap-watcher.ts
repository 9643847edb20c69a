import { lookup } from 'node:dns/promises';
import { ImapFlow } from 'imapflow';
import { isBlockedAddress, isLocalHostname } from '../../lib/outbound/address-policy.ts';

/**
 * One mailbox watched over one IMAP connection (docs/email.md "IMAP"): connects with imapflow,
 * opens the mailbox, and hands every message whose UID is above the last one taken to `take`,
 * oldest first, recording each as taken once `take` resolved. New mail is noticed by IDLE (the
 * server's EXISTS), by a check every `checkMs` as a safety net, and on servers without IDLE by
 * `poll()`, which the supervisor calls on each of its passes. The watcher ends when the
 * connection does; the supervisor (imap-supervisor.ts) starts a new one after a pause.
 *
 * The polls and the safety check open the mailbox again before looking (docs/email.md "IMAP",
 * "Renumbered mailbox"): a server need not end a session whose mailbox was deleted and created
 * again. Dovecot keeps such a session when the two come soon after the session last looked, and
 * answers it from the old mailbox (its old UIDVALIDITY, UIDs that are gone) until mail arrives;
 * only a new SELECT (here EXAMINE) reads the mailbox as it is.
 */

export type MailboxSettings = {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  password: string;
  mailbox: string;
};

/** Where the watcher stands in a mailbox: the UIDs taken belong to this UIDVALIDITY. */
export type Position = { uidValidity: number; lastUid: number };

export type WatcherHooks = {
  /** The saved position, or null when this mailbox has none (first connect: start at UIDNEXT). */
  position(): Promise<Position | null>;
  /** Records a new position; false when this process no longer holds the mailbox (it stops). */
  save(position: Position): Promise<boolean>;
  /** Ingests one raw message (features/email/email.inbound.ts deduplicates by Message-ID). */
  take(raw: Buffer, uid: number): Promise<void>;
  /** A message over the size limit, left in the mailbox unread by Parley. */
  skipped?(uid: number, size: number): void;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
};

/** Why a connection attempt failed, in words for the channel's status. */
export class ImapConnectError extends Error {
  constructor(
    message: string,
    /** The server refused the credentials: retrying soon will not help. */
    readonly authFailed: boolean,
  ) {
    super(message);
    this.name = 'ImapConnectError';
  }
}

/** The largest message taken (the forwarding limit, docs/email.md "Inbound by forwarding"). */
const MAX_BYTES = 25 * 1024 * 1024;
/** Messages fetched per round, so a backlog is taken in bounded steps. */
const BATCH = 50;

type ErrorWithCode = Error & { code?: string; authenticationFailed?: boolean; responseText?: string };

/** The address to connect to: refused when it is private or reserved and the server forbids those. */
async function resolveHost(host: string, allowPrivate: boolean): Promise<string> {
  if (allowPrivate) return host;
  const literal = host.replace(/^\[|\]$/g, '');
  if (isLocalHostname(literal)) throw new ImapConnectError(`IMAP: ${host} is a local host name`, false);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(literal, { all: true, verbatim: true });
  } catch (err) {
    throw new ImapConnectError(
      `IMAP: could not resolve ${host}: ${(err as ErrorWithCode).code ?? 'error'}`,
      false,
    );
  }
  if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address))) {
    throw new ImapConnectError(`IMAP: ${host} is a private or reserved address`, false);
  }
  return (addresses[0] as { address: string }).address;
}

/** An imapflow failure as the channel's status says it. */
export function describeImapError(
  err: unknown,
  s: Pick<MailboxSettings, 'host' | 'port' | 'username'>,
): ImapConnectError {
  if (err instanceof ImapConnectError) return err;
  const e = err as ErrorWithCode;
  if (e?.authenticationFailed) {
    return new ImapConnectError(`IMAP: the server refused the user name or password for ${s.username}`, true);
  }
  const code = e?.code ? ` (${e.code})` : '';
  const why = e?.responseText || e?.message || String(err);
  return new ImapConnectError(`IMAP: could not connect to ${s.host}:${s.port}: ${why}${code}`, false);
}

export class MailboxWatcher {
  private client: ImapFlow | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private busy = false;
  private position: Position | null = null;
  /** The next round opens the mailbox again first (set by `poll()` and the safety check). */
  private reopen = false;
  private checkTimer: NodeJS.Timeout | null = null;
  private closedResolve: (() => void) | null = null;
  /** Resolves when the connection has ended (dropped by the server, or stopped). */
  readonly closed: Promise<void>;
  /** Whether the server announced IDLE; without it `poll()` does the checking. */
  idle = false;

  constructor(
    private readonly settings: MailboxSettings,
    private readonly hooks: WatcherHooks,
    private readonly opts: { allowPrivateNetworks: boolean; checkMs: number },
  ) {
    this.closed = new Promise((resolve) => {
      this.closedResolve = resolve;
    });
  }

  /** Connects, logs in and opens the mailbox, then takes what is new; throws ImapConnectError. */
  async start(): Promise<void> {
    const s = this.settings;
    let client: ImapFlow;
    try {
      const address = await resolveHost(s.host, this.opts.allowPrivateNetworks);
      client = new ImapFlow({
        host: address,
        port: s.port,
        secure: s.secure,
        ...(address !== s.host ? { servername: s.host } : {}),
        auth: { user: s.username, pass: s.password },
        logger: false,
        // IDLE as soon as the connection is quiet (imapflow waits 15 s by default), restarted
        // every 5 minutes (RFC 2177 asks for less than 29).
        autoIdleDelay: 200,
        maxIdleTime: 5 * 60_000,
        connectionTimeout: 20_000,
        greetingTimeout: 15_000,
      });
      client.on('error', (err: Error) => this.hooks.log.warn({ err, host: s.host }, 'IMAP connection error'));
      client.on('close', () => this.finish());
      client.on('exists', () => this.check());
      this.client = client;
      await client.connect();
      await client.mailboxOpen(s.mailbox, { readOnly: true });
    } catch (err) {
      // Logged in but the mailbox would not open (say, it does not exist): without this close the
      // session stayed open, one more at each retry, up to the server's limit per user and address.
      this.client?.close();
      this.finish();
      throw describeImapError(err, s);
    }
    this.idle = client.capabilities.has('IDLE');
    this.checkTimer = setInterval(() => this.recheck(), this.opts.checkMs);
    this.checkTimer.unref();
    await this.check();
  }

  /** On a server without IDLE: looks for new mail now (the supervisor's passes call this). */
  poll(): Promise<void> {
    return this.idle ? Promise.resolve() : this.recheck();
  }

  /** Opens the mailbox again, then takes what is new (a renumbering the session was not told of). */
  private recheck(): Promise<void> {
    this.reopen = true;
    return this.check();
  }

  /** Takes what is new; concurrent calls fold into one more round after the current one. */
  check(): Promise<void> {
    if (this.stopped) return this.running;
    if (this.busy) {
      this.again = true;
      return this.running;
    }
    this.busy = true;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.takeNew();
        } while (this.again && !this.stopped);
      } catch (err) {
        if (!this.stopped) {
          this.hooks.log.warn({ err, host: this.settings.host }, 'IMAP check failed; reconnecting');
          this.client?.close();
        }
      } finally {
        this.busy = false;
      }
    })();
    return this.running;
  }

  private async takeNew(): Promise<void> {
    const client = this.client;
    if (!client || this.stopped) return;
    if (this.reopen) {
      this.reopen = false;
      // Gone (deleted, not created again): throws, and the watcher reconnects after a pause.
      await client.mailboxOpen(this.settings.mailbox, { readOnly: true });
    }
    const box = client.mailbox;
    if (!box || this.stopped) return;
    const uidValidity = Number(box.uidValidity);
    if (!this.position) this.position = await this.hooks.position();
    if (!this.position || this.position.uidValidity !== uidValidity) {
      // First connect, or the server renumbered the mailbox (UIDVALIDITY changed): what is there
      // now counts as already there, and the watcher takes what arrives from UIDNEXT on.
      const uidNext = await this.uidNext(client);
      const fresh = { uidValidity, lastUid: Math.max(0, uidNext - 1) };
      if (this.position) {
        this.hooks.log.warn(
          {
            host: this.settings.host,
            mailbox: this.settings.mailbox,
            was: this.position.uidValidity,
            now: uidValidity,
          },
          'IMAP UIDVALIDITY changed: starting afresh from UIDNEXT',
        );
      }
      if (!(await this.hooks.save(fresh))) return this.stopLost();
      this.position = fresh;
      return;
    }
    for (;;) {
      if (this.stopped) return;
      const from = this.position.lastUid + 1;
      const found: { uid: number; size: number }[] = [];
      // `from:*` always names the newest message, even when its UID is below `from`.
      for await (const m of client.fetch(`${from}:*`, { uid: true, size: true }, { uid: true })) {
        if (m.uid >= from) found.push({ uid: m.uid, size: m.size ?? 0 });
      }
      if (found.length === 0) return;
      found.sort((a, b) => a.uid - b.uid);
      for (const m of found.slice(0, BATCH)) {
        if (this.stopped) return;
        if (m.size > MAX_BYTES) {
          this.hooks.skipped?.(m.uid, m.size);
        } else {
          const one = await client.fetchOne(String(m.uid), { uid: true, source: true }, { uid: true });
          // false: expunged meanwhile (by another client); nothing to take.
          const source = one === false ? undefined : one.source;
          if (source) await this.hooks.take(source, m.uid);
        }
        const next = { uidValidity, lastUid: m.uid };
        if (!(await this.hooks.save(next))) return this.stopLost();
        this.position = next;
      }
    }
  }

  /** UIDNEXT of the open mailbox; else one above the newest message's UID (never "take all"). */
  private async uidNext(client: ImapFlow): Promise<number> {
    const known = client.mailbox ? Number(client.mailbox.uidNext) : 0;
    if (known > 0) return known;
    let newest = 0;
    if (client.mailbox && client.mailbox.exists > 0) {
      for await (const m of client.fetch('*', { uid: true })) newest = Math.max(newest, m.uid);
    }
    return newest + 1;
  }

  private stopLost(): void {
    this.hooks.log.info({ host: this.settings.host }, 'IMAP mailbox taken over by another process; stopping');
    void this.stop();
  }

  private finish(): void {
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.checkTimer = null;
    this.closedResolve?.();
    this.closedResolve = null;
  }

  /** Closes the connection at once (a stop out of time). */
  abort(): void {
    this.stopped = true;
    this.client?.close();
    this.finish();
  }

  /** Ends the connection: the message in hand is finished first (its UID then recorded). */
  async stop(): Promise<void> {
    if (this.stopped) return this.closed;
    this.stopped = true;
    const client = this.client;
    await this.running.catch(() => undefined);
    if (client?.usable) {
      await Promise.race([client.logout().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    }
    client?.close();
    this.finish();
  }
}
