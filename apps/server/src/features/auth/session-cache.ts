import type { AppContext } from '../../context.ts';
import { listen, SESSIONS_CHANNEL } from '../../jobs/listen.ts';

/** A live session as its lookup found it (credentials.repo.ts `findLiveSession`). */
export type HeldSession = { id: string; userId: string; expiresAt: Date };

type Entry = HeldSession & { heldUntil: number };

/** How long a looked-up session is served from memory (ms), and how many are held at most. */
const HOLD_MS = 5_000;
const MAX_HELD = 10_000;

/**
 * The live sessions this process looked up, held for a few seconds (`ctx.sessions`): every request
 * of the dashboard and the internal chat authenticates with its session cookie, and the lookup was
 * one of the four statements of a chat (docs/performance.md "Chat capacity").
 *
 * A session never outlives its revocation: a session deleted or changed anywhere notifies every
 * process at commit (migration 0038, the `parley_sessions` channel, with the user's id), and the
 * user's sessions held here are dropped; this process's own sign-outs drop them at once as well
 * (`forgetUser`). Sessions are held only while that channel is heard (`watchSessions`): when the
 * LISTEN connection is lost, everything held is dropped and every request looks its session up
 * again until it is back. A lookup that was under way when a revocation arrived is not kept (the
 * revocation's `epoch`), so it cannot put back a session just dropped. Expiry is checked on every
 * use against the session's own `expiresAt` (docs/decisions/0048-sessions-held-in-memory.md).
 */
export class SessionCache {
  private readonly held = new Map<string, Entry>();
  private listening = false;
  /** Bumped by every revocation: a lookup begun before one is not kept. */
  private revocations = 0;

  /** The live session of this token hash at `at` (the app's clock), if held. */
  get(tokenHash: string, at: Date): HeldSession | undefined {
    const e = this.held.get(tokenHash);
    if (!e) return undefined;
    if (e.heldUntil <= at.getTime() || e.expiresAt <= at) {
      this.held.delete(tokenHash);
      return undefined;
    }
    return e;
  }

  /** Taken before a lookup and given back to `keep` with its result. */
  get epoch(): number {
    return this.revocations;
  }

  /** Holds a session a lookup found, unless a revocation arrived since `epoch` or none can be heard. */
  keep(epoch: number, tokenHash: string, session: HeldSession, at: Date): void {
    if (!this.listening || epoch !== this.revocations) return;
    if (this.held.size >= MAX_HELD) this.held.clear();
    this.held.set(tokenHash, { ...session, heldUntil: at.getTime() + HOLD_MS });
  }

  /** Drops a user's sessions (a sign-out, a password change, the user deleted), or, with none, all. */
  forgetUser(userId?: string): void {
    this.revocations++;
    if (userId === undefined) {
      this.held.clear();
      return;
    }
    for (const [hash, e] of this.held) if (e.userId === userId) this.held.delete(hash);
  }

  /** Whether revocations can be heard; while they cannot, nothing is held. */
  setListening(on: boolean): void {
    this.listening = on;
    if (!on) this.forgetUser();
  }

  /** Sessions held now, in all or of one user (tests, diagnostics). */
  heldFor(userId?: string): number {
    if (userId === undefined) return this.held.size;
    let n = 0;
    for (const e of this.held.values()) if (e.userId === userId) n++;
    return n;
  }
}

/**
 * Listens for revoked sessions (migration 0038) for `ctx.sessions`; a NOTIFY without a payload
 * (LISTEN back after a loss) drops everything. Returns the function that stops it.
 */
export async function watchSessions(ctx: AppContext): Promise<() => Promise<void>> {
  const cache = ctx.sessions;
  const stop = await listen(
    ctx.database,
    SESSIONS_CHANNEL,
    (userId) => cache.forgetUser(userId || undefined),
    { log: ctx.log, onState: (on) => cache.setListening(on), ownConnection: true },
  );
  return async () => {
    cache.setListening(false);
    await stop();
  };
}
