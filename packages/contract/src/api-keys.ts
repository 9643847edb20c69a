import { z } from 'zod';
import { str } from './envelope.ts';
import { SCOPES, type Scope } from './scopes.ts';

/**
 * Scopes that write through /api/v1 and so need the plan feature `api_v1_write`
 * (docs/api-keys.md "Scopes and plans").
 */
export const WRITE_SCOPES: readonly Scope[] = ['contacts:write', 'tickets:write', 'chat:write'];

const scope = z.enum(SCOPES as [Scope, ...Scope[]]);

export const createApiKeyBody = z.strictObject({
  name: str(100),
  scopes: z
    .array(scope)
    .min(1, 'At least one scope is required')
    .max(SCOPES.length)
    .refine((s) => new Set(s).size === s.length, 'Scopes must not repeat'),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyBody>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  last4: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

/** The create response: the only time `key` is shown (docs/api-keys.md "Managing keys (owner or admin)"). */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  key: z.string(),
  last4: z.string(),
  createdAt: z.string(),
});

export const keyParams = z.object({ workspaceId: z.string().max(100), keyId: z.string().max(100) });
export const workspaceParams = z.object({ workspaceId: z.string().max(100) });
