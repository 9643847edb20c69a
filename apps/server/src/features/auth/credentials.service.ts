import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { now } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { findApiKey, findLiveSession, findPersonalToken } from './credentials.repo.ts';

export const SESSION_COOKIE = 'parley.session-token';
export const PAT_PREFIX = 'pat_';
export const API_KEY_PREFIX = 'wsk_live_';

/** Secrets are looked up by their SHA-256 only (decisions §3: stored only as hashes). */
export async function actorFromSessionToken(ctx: AppContext, token: string): Promise<Actor | null> {
  if (token.length > 200) return null;
  const row = await findLiveSession(ctx.db, sha256Hex(token), now());
  return row ? { kind: 'user', userId: row.userId, via: 'session', sessionId: row.id } : null;
}

export async function actorFromBearer(ctx: AppContext, token: string): Promise<Actor | null> {
  if (token.length > 200) return null;
  if (token.startsWith(PAT_PREFIX)) {
    const row = await findPersonalToken(ctx.db, sha256Hex(token));
    return row ? { kind: 'user', userId: row.userId, via: 'pat', tokenId: row.id } : null;
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const row = await findApiKey(ctx.db, sha256Hex(token));
    return row ? { kind: 'apiKey', keyId: row.id, workspaceId: row.workspaceId, scopes: row.scopes } : null;
  }
  return null;
}
