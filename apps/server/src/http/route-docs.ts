import { errorBody } from '@parley/contract/envelope';
import type { RouteOptions } from 'fastify';
import type { AuthMode } from './actor.ts';

const SECURITY: Record<AuthMode, Array<Record<string, string[]>> | undefined> = {
  none: undefined,
  session: [{ session: [] }],
  user: [{ session: [] }, { bearer: [] }],
  'user-or-key': [{ session: [] }, { bearer: [] }],
  key: [{ bearer: [] }],
  widget: undefined,
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The one error-response map. Which error statuses an operation can answer follows from what
 * its route declares, in the order of checks (docs/api.md): a credential (401, and 429 past the
 * rate limit), a requirement (403: role, scope, plan; cookie writes also the CSRF guard), a
 * workspace or resource (404), input (400), a body (413). A route names only what is its own,
 * such as a 409 conflict, in its schema; that entry is kept.
 */
export function errorStatuses(route: RouteOptions): number[] {
  const cfg = route.config ?? {};
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const methods = ([] as string[]).concat(route.method);
  const takesBody = methods.some((m) => BODY_METHODS.has(m));
  const auth = cfg.auth ?? 'none';
  const statuses = new Set<number>();
  if (schema.body || schema.querystring || schema.params || takesBody) statuses.add(400);
  if (auth !== 'none') statuses.add(401);
  const cookieWrite = takesBody && auth !== 'none' && auth !== 'key' && auth !== 'widget';
  if (cfg.permission || cfg.scope || cfg.planFeature || cookieWrite || auth === 'widget') statuses.add(403);
  const addressed =
    route.url.includes(':') || cfg.workspace === 'input' || auth === 'key' || auth === 'widget';
  if (addressed || (cfg.resources?.length ?? 0) > 0) statuses.add(404);
  if (takesBody) statuses.add(413);
  // Credentialed routes have the per-caller limit; the widget's POSTs the per-IP one.
  if (auth === 'widget' ? takesBody : auth !== 'none') statuses.add(429);
  return [...statuses].sort();
}

/**
 * onRoute: every operation in the OpenAPI document names the credentials its `config.auth`
 * accepts and the error responses it can give, all in the one error body.
 */
export function documentRoute(route: RouteOptions) {
  const schema = (route.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };
  if (schema.hide) return;
  const security = SECURITY[route.config?.auth ?? 'none'];
  const errors = Object.fromEntries(errorStatuses(route).map((status) => [status, errorBody]));
  route.schema = {
    ...schema,
    ...(security && !schema.security ? { security } : {}),
    response: { ...errors, ...schema.response },
  };
}
