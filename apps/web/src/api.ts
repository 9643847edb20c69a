import type { Role } from '@parley/contract/api-types';

/**
 * The dashboard talks only to the public API with the session cookie (docs/dashboard.md). A
 * same-origin fetch sends the cookie and the Origin header the CSRF guard wants (docs/api.md).
 * Every error body is `{error, code, details?}`; `ApiError.message` is the text shown to people.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A readable sentence from an error body, with the field messages of a validation failure. */
export async function errorFrom(res: Response): Promise<ApiError> {
  let body: { error?: string; code?: string; details?: Record<string, string> } = {};
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy's error page): fall back to the status below.
  }
  const fields = body.details
    ? Object.entries(body.details).map(([k, v]) => (k === '_' ? v : `${k}: ${v}`))
    : [];
  const text = [body.error ?? `Request failed (${res.status} ${res.statusText})`, ...fields].join(' — ');
  return new ApiError(res.status, body.code ?? 'unknown', text, body.details);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const del = <T = void>(path: string) => api<T>('DELETE', path);

/**
 * The request and response types are the server's, inferred from its Zod schemas
 * (packages/contract/src/api-types.ts; type-only, nothing of the server reaches the bundle).
 */
export type {
  Assistant,
  AssistantItem,
  Billing,
  Citation,
  Conversation,
  CursorPage,
  Data,
  Message,
  OffsetPage,
  Role,
  SearchHit,
  Source,
  Theme,
  ToolStep,
  User,
  Workspace,
} from '@parley/contract/api-types';

/** Roles allowed to create and edit assistants and their knowledge (docs/api.md "Roles and permissions"). */
export const canManage = (role: Role | undefined) => role === 'owner' || role === 'admin';
