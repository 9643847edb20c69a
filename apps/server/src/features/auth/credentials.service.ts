import type { Plan } from '@parley/contract/plans';
import type { AppContext } from '../../context.ts';
import type { Role } from '../../db/schema/index.ts';
import type { Actor, Prefetched } from '../../http/actor.ts';
import { now } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { planStanding } from '../workspaces/plan.ts';
import { tenantIn } from '../workspaces/tenant.service.ts';
import {
  findApiKey,
  findLiveSession,
  findLiveSessionIn,
  findPersonalToken,
  findPersonalTokenIn,
  touchApiKey,
  touchPersonalToken,
} from './credentials.repo.ts';

export const SESSION_COOKIE = 'parley.session-token';
export const PAT_PREFIX = 'pat_';
export const API_KEY_PREFIX = 'wsk_live_';

type MemberRow = {
  role: Role | null;
  plan: Plan | null;
  trialEndsAt: Date | null;
  billingStatus: string | null;
  monthlyCredits: number | null;
};

/** The membership columns of a credential lookup as the tenant guard's answer (null: not a member). */
function prefetched(workspaceId: string, row: MemberRow): Prefetched {
  if (!row.role || !row.plan || row.billingStatus === null) return { workspaceId, tenant: null };
  const standing = planStanding({
    plan: row.plan,
    trialEndsAt: row.trialEndsAt,
    billingStatus: row.billingStatus,
    monthlyCredits: row.monthlyCredits,
  });
  return { workspaceId, tenant: tenantIn(workspaceId, row.role, standing) };
}

/**
 * Secrets are looked up by their SHA-256 only (docs/api.md "Surfaces and credentials": stored only as
 * hashes). With `workspaceId` (the path's), the same query reads the user's membership there.
 */
export async function actorFromSessionToken(
  ctx: AppContext,
  token: string,
  workspaceId?: string,
): Promise<Actor | null> {
  if (token.length > 200) return null;
  if (workspaceId !== undefined && workspaceId.length <= 100) {
    const row = await findLiveSessionIn(ctx.db, sha256Hex(token), now(), workspaceId);
    if (!row) return null;
    return {
      kind: 'user',
      userId: row.userId,
      via: 'session',
      sessionId: row.id,
      prefetched: prefetched(workspaceId, row),
    };
  }
  // Held for a few seconds and dropped when revoked anywhere (session-cache.ts).
  const hash = sha256Hex(token);
  const at = now();
  let row = ctx.sessions.get(hash, at);
  if (!row) {
    const epoch = ctx.sessions.epoch;
    row = await findLiveSession(ctx.db, hash, at);
    if (row) ctx.sessions.keep(epoch, hash, row, at);
  }
  return row ? { kind: 'user', userId: row.userId, via: 'session', sessionId: row.id } : null;
}

export async function actorFromBearer(
  ctx: AppContext,
  token: string,
  workspaceId?: string,
): Promise<Actor | null> {
  if (token.length > 200) return null;
  if (token.startsWith(PAT_PREFIX)) {
    if (workspaceId !== undefined && workspaceId.length <= 100) {
      const row = await findPersonalTokenIn(ctx.db, sha256Hex(token), workspaceId);
      if (!row) return null;
      return {
        kind: 'user',
        userId: row.userId,
        via: 'pat',
        tokenId: row.id,
        prefetched: prefetched(workspaceId, row),
      };
    }
    const row = await findPersonalToken(ctx.db, sha256Hex(token));
    return row ? { kind: 'user', userId: row.userId, via: 'pat', tokenId: row.id } : null;
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const row = await findApiKey(ctx.db, sha256Hex(token));
    if (!row) return null;
    const { workspaceId: ws } = row;
    return {
      kind: 'apiKey',
      keyId: row.id,
      workspaceId: ws,
      scopes: row.scopes,
      prefetched: { workspaceId: ws, tenant: tenantIn(ws, null, planStanding(row)) },
    };
  }
  return null;
}

const TOUCH_EVERY_MS = 60_000;

/**
 * Records `lastUsedAt` of an API key or personal token at most once a minute per credential
 * (the UPDATE re-checks, so several instances stay near that too). Callers fire and forget:
 * it is never on the request's critical path. Sessions carry no lastUsedAt.
 */
export async function touchCredential(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.kind === 'user' && actor.via === 'session') return;
  const id = actor.kind === 'apiKey' ? actor.keyId : actor.tokenId;
  const at = now();
  // When this process last stamped it (ms; ctx.credentialTouches): bounded, a miss costs one UPDATE.
  const lastTouched = ctx.credentialTouches;
  const last = lastTouched.get(id);
  if (last !== undefined && at.getTime() - last < TOUCH_EVERY_MS) return;
  if (lastTouched.size >= 10_000) lastTouched.clear();
  lastTouched.set(id, at.getTime());
  if (actor.kind === 'apiKey') await touchApiKey(ctx.db, id, at);
  else await touchPersonalToken(ctx.db, id, at);
}
