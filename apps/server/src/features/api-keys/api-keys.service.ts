import { type CreateApiKeyInput, WRITE_SCOPES } from '@parley/contract/api-keys';
import type { AppContext } from '../../context.ts';
import { planHas, type Tenant } from '../../http/actor.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { API_KEY_PREFIX } from '../auth/credentials.service.ts';
import * as repo from './api-keys.repo.ts';

/**
 * docs/api-keys.md "Scopes and plans": a key with a write scope needs `api_v1_write` (Free → 403
 * plan_upgrade_required); `events:read` alone is fine on Free. The key is 256 random bits after `wsk_live_`,
 * stored only as its SHA-256 (docs/api.md "Surfaces and credentials") and returned once.
 */
export async function createApiKey(
  ctx: AppContext,
  tenant: Tenant,
  userId: string,
  input: CreateApiKeyInput,
) {
  if (input.scopes.some((s) => WRITE_SCOPES.includes(s)) && !planHas(tenant.plan, 'api_v1_write')) {
    throw new AppError(
      'plan_upgrade_required',
      'Write scopes need the Pro plan or higher; upgrade, or create a key with events:read only',
      { scopes: 'Write scopes need plan feature api_v1_write' },
    );
  }
  const key = randomToken(API_KEY_PREFIX, 32);
  const row = await repo.insertApiKey(ctx.db, {
    id: newId('key'),
    workspaceId: tenant.workspaceId,
    name: input.name,
    scopes: input.scopes,
    keyHash: sha256Hex(key),
    last4: key.slice(-4),
    createdBy: userId,
  });
  return { row, key };
}

export const listApiKeys = (ctx: AppContext, workspaceId: string, limit: number, offset: number) =>
  repo.listApiKeys(ctx.db, workspaceId, limit, offset);

/**
 * Revocation is immediate: every request looks the key up again
 * (docs/api-keys.md "Managing keys (owner or admin)").
 */
export async function revokeApiKey(ctx: AppContext, workspaceId: string, keyId: string) {
  if (!(await repo.deleteApiKey(ctx.db, workspaceId, keyId))) throw notFound('API key');
}
