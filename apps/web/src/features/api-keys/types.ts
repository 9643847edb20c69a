/** docs/api-keys.md: the shapes of `/api/workspaces/{ws}/api-keys`. */
import type { Scope } from '@parley/contract/api-types';

/** The server's types (packages/contract/src/api-types.ts); the create answer is the only time `key` is shown. */
export type { ApiKey, CreatedApiKey, Scope } from '@parley/contract/api-types';

/**
 * The scopes table of docs/api-keys.md; `write` scopes need Pro or Enterprise. `what` is a key of
 * the api-keys catalog's `scope` (apps/web/src/i18n/en/api-keys.ts).
 */
export const SCOPES = [
  { id: 'contacts:write', what: 'contactsWrite', write: true },
  { id: 'tickets:write', what: 'ticketsWrite', write: true },
  { id: 'chat:write', what: 'chatWrite', write: true },
  { id: 'events:read', what: 'eventsRead', write: false },
] as const satisfies ReadonlyArray<{ id: Scope; what: string; write: boolean }>;
