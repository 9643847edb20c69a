/** docs/api-keys.md: the shapes of `/api/workspaces/{ws}/api-keys`. */
import type { Scope } from '@parley/contract/api-types';

/** The server's types (packages/contract/src/api-types.ts); the create answer is the only time `key` is shown. */
export type { ApiKey, CreatedApiKey, Scope } from '@parley/contract/api-types';

/** The scopes table of docs/api-keys.md; `write` scopes need Pro or Enterprise. */
export const SCOPES: Array<{ id: Scope; what: string; write: boolean }> = [
  { id: 'contacts:write', what: 'create, update and delete CRM contacts', write: true },
  { id: 'tickets:write', what: 'create and update tickets', write: true },
  { id: 'chat:write', what: 'send messages into conversations', write: true },
  { id: 'events:read', what: 'subscribe to workspace events (webhooks)', write: false },
];
