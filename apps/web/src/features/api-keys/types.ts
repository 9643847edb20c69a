/** docs/api-keys.md: the shapes of `/api/workspaces/{ws}/api-keys`. */
export type Scope = 'contacts:write' | 'tickets:write' | 'chat:write' | 'events:read';
export type ApiKey = {
  id: string;
  name: string;
  scopes: Scope[];
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
};
/** The create answer: the only time `key` is shown (Parley stores its SHA-256). */
export type CreatedApiKey = Omit<ApiKey, 'lastUsedAt'> & { key: string };

/** The scopes table of docs/api-keys.md; `write` scopes need Pro or Enterprise. */
export const SCOPES: Array<{ id: Scope; what: string; write: boolean }> = [
  { id: 'contacts:write', what: 'create, update and delete CRM contacts', write: true },
  { id: 'tickets:write', what: 'create and update tickets', write: true },
  { id: 'chat:write', what: 'send messages into conversations', write: true },
  { id: 'events:read', what: 'subscribe to workspace events (webhooks)', write: false },
];
