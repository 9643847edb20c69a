import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { now } from '../../lib/clock.ts';
import { decrypt, sha256Hex } from '../../lib/crypto.ts';
import type { Log } from '../../lib/log.ts';
import {
  claimLease,
  forgetUnwatched,
  type ImapChannel,
  listImapChannels,
  readPosition,
  releaseLease,
  savePosition,
  setImapStatus,
} from './imap-state.repo.ts';
import { ImapConnectError, type MailboxSettings, MailboxWatcher } from './imap-watcher.ts';

/**
 * Keeps one watcher (imap-watcher.ts) per enabled IMAP channel whose mailbox this process holds
 * (docs/email.md "IMAP"). Each pass (the `email-imap` job, every few seconds) re-reads the
 * configurations: a new channel gets a watcher, a changed one a new watcher, a disabled or deleted
 * one none. A mailbox is watched by the process holding its lease (a row in email_imap_state,
 * renewed by every pass, taken over by another process once it has lapsed), so several Parley
 * processes watch each mailbox once. A watcher whose connection ends is replaced after a pause
 * that doubles with each failed attempt.
 */

export type SupervisorOptions = {
  db: Db;
  log: Log;
  encryptionKey: Buffer;
  allowPrivateNetworks: boolean;
  /** Hands a raw message to the channel's ingestion (features/email/email.inbound.ts). */
  ingest(channel: { workspaceId: string; assistantId: string }, raw: Buffer): Promise<void>;
  /** How long a lease lasts without renewal: a stopped process's mailboxes wait this long. */
  leaseMs?: number;
  /** A check for new mail this often even with IDLE (a notification missed). */
  checkMs?: number;
};

type Entry = {
  channel: ImapChannel;
  /** The password, opened once per pass; null when it cannot be decrypted. */
  password: string | null;
  key: string;
  watcher: MailboxWatcher | null;
  connecting: boolean;
  /** Attempts failed in a row; the pause before the next one doubles with each. */
  failures: number;
  nextAttemptAt: number;
};

const LEASE_MS = 30_000;
const CHECK_MS = 60_000;
/** Pauses before reconnecting: 1 s after a drop, doubling per failure up to a minute. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** Refused credentials are not tried again for a minute or more (no lockouts on the mail server). */
const AUTH_RETRY_MS = 60_000;
/** Network failures in a row before the status says so (a restart of the server is not an error). */
const FAILURES_BEFORE_ERROR = 3;

/** What a watcher is built from: a change restarts it (the password by its digest: saving re-seals it). */
const configKey = (c: ImapChannel, password: string) =>
  JSON.stringify([c.host, c.port, c.secure, c.username, sha256Hex(password), c.mailbox]);
/** The mailbox the UIDs belong to: another host, user or folder starts afresh. */
const mailboxKey = (c: ImapChannel) => `${c.username}@${c.host}:${c.port}/${c.mailbox}`;

export class ImapSupervisor {
  /** This process's name on the leases it holds. */
  readonly owner = randomUUID();
  private readonly entries = new Map<string, Entry>();
  private stopping = false;

  constructor(private readonly opts: SupervisorOptions) {}

  /** The watchers connected now, by channel (tests, status). */
  watching(): string[] {
    return [...this.entries.values()].filter((e) => e.watcher).map((e) => e.channel.assistantId);
  }

  /** One pass: reads the configurations, renews or takes leases, starts and stops watchers. */
  async pass(): Promise<void> {
    if (this.stopping) return;
    // A channel disabled (or switched to forwarding) forgets its place: once enabled again it
    // takes what arrives from then on, as a channel saved afresh.
    await forgetUnwatched(this.opts.db);
    const channels = await listImapChannels(this.opts.db);
    const seen = new Set<string>();
    for (const channel of channels) {
      seen.add(channel.assistantId);
      const held = await claimLease(
        this.opts.db,
        channel.workspaceId,
        channel.assistantId,
        this.owner,
        this.opts.leaseMs ?? LEASE_MS,
      );
      const entry = this.entries.get(channel.assistantId);
      if (!held) {
        if (entry) await this.drop(entry, false);
        continue;
      }
      const password = this.open(channel.passwordSealed);
      const key = configKey(channel, password ?? '');
      if (entry && entry.key !== key) await this.drop(entry, false);
      const current = this.entries.get(channel.assistantId) ?? this.add(channel, password, key);
      if (current.watcher) void current.watcher.poll();
      else if (!current.connecting && now().getTime() >= current.nextAttemptAt) void this.connect(current);
    }
    for (const entry of [...this.entries.values()]) {
      if (!seen.has(entry.channel.assistantId)) await this.drop(entry, true);
    }
  }

  private open(sealed: string): string | null {
    try {
      return decrypt(this.opts.encryptionKey, sealed);
    } catch {
      return null;
    }
  }

  private add(channel: ImapChannel, password: string | null, key: string): Entry {
    const entry: Entry = {
      channel,
      password,
      key,
      watcher: null,
      connecting: false,
      failures: 0,
      nextAttemptAt: 0,
    };
    this.entries.set(channel.assistantId, entry);
    return entry;
  }

  private async connect(entry: Entry): Promise<void> {
    const { channel } = entry;
    const { db, log } = this.opts;
    const box = mailboxKey(channel);
    const ids = [db, channel.workspaceId, channel.assistantId] as const;
    if (entry.password === null) {
      await setImapStatus(...ids, {
        state: 'error',
        message: 'IMAP: the saved password cannot be read; save it again',
      });
      entry.nextAttemptAt = now().getTime() + RETRY_MAX_MS;
      return;
    }
    const settings: MailboxSettings = { ...channel, password: entry.password };
    const watcher = new MailboxWatcher(
      settings,
      {
        position: async () => {
          const p = await readPosition(...ids);
          return p.mailboxKey === box && p.uidValidity !== null && p.lastUid !== null
            ? { uidValidity: p.uidValidity, lastUid: p.lastUid }
            : null;
        },
        save: (p) => savePosition(...ids, this.owner, { mailboxKey: box, ...p }),
        take: (raw) => this.opts.ingest(channel, raw),
        skipped: (uid, size) =>
          log.warn(
            { assistantId: channel.assistantId, uid, size },
            'IMAP message over 25 MB left in the mailbox',
          ),
        log,
      },
      { allowPrivateNetworks: this.opts.allowPrivateNetworks, checkMs: this.opts.checkMs ?? CHECK_MS },
    );
    entry.connecting = true;
    try {
      await watcher.start();
    } catch (err) {
      entry.connecting = false;
      if (this.entries.get(channel.assistantId) !== entry || this.stopping) return;
      const failure = err instanceof ImapConnectError ? err : new ImapConnectError(String(err), false);
      entry.failures++;
      const pause = Math.min(RETRY_FIRST_MS * 2 ** (entry.failures - 1), RETRY_MAX_MS);
      entry.nextAttemptAt = now().getTime() + (failure.authFailed ? Math.max(pause, AUTH_RETRY_MS) : pause);
      log.warn(
        { assistantId: channel.assistantId, failures: entry.failures, reason: failure.message },
        'IMAP connection failed',
      );
      if (failure.authFailed || entry.failures >= FAILURES_BEFORE_ERROR) {
        await setImapStatus(...ids, { state: 'error', message: failure.message });
      }
      return;
    }
    entry.connecting = false;
    if (this.entries.get(channel.assistantId) !== entry || this.stopping) {
      await watcher.stop();
      return;
    }
    entry.watcher = watcher;
    entry.failures = 0;
    await setImapStatus(...ids, {
      state: 'ok',
      message: `Watching ${channel.mailbox} on ${channel.host} as ${channel.username}${watcher.idle ? '' : ' (polling: the server has no IDLE)'}`,
    });
    void watcher.closed.then(() => {
      if (entry.watcher !== watcher) return;
      entry.watcher = null;
      entry.nextAttemptAt = now().getTime() + RETRY_FIRST_MS;
      log.info({ assistantId: channel.assistantId }, 'IMAP connection ended; reconnecting');
    });
  }

  /** Stops a channel's watcher; `release` gives its lease up (the channel is no longer watched here). */
  private async drop(entry: Entry, release: boolean): Promise<void> {
    this.entries.delete(entry.channel.assistantId);
    const watcher = entry.watcher;
    entry.watcher = null;
    await watcher?.stop();
    if (release) {
      await releaseLease(
        this.opts.db,
        entry.channel.workspaceId,
        entry.channel.assistantId,
        this.owner,
      ).catch(() => undefined);
    }
  }

  /** After a stop that ran out of time: closes whatever connection is still open. */
  abort(): void {
    this.stopping = true;
    for (const entry of this.entries.values()) entry.watcher?.abort();
  }

  /** Stops every watcher and gives the leases up, so another process takes the mailboxes at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.entries.values()].map((e) => this.drop(e, true)));
  }
}
