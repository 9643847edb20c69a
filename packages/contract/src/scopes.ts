/** What a workspace API key may be allowed to do (docs/api-keys.md "Scopes"). */
export type Scope = 'contacts:write' | 'tickets:write' | 'chat:write' | 'events:read';
export const SCOPES: readonly Scope[] = ['contacts:write', 'tickets:write', 'chat:write', 'events:read'];
