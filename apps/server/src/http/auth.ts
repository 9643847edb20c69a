import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Actor, AuthMode } from './actor.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { consume } from './rate-limits.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How credentials are read; the auth feature provides it (app.ts), so this file names no feature. */
export type Credentials = {
  sessionCookie: string;
  patPrefix: string;
  apiKeyPrefix: string;
  /** With `workspaceId` (the path's), the same query reads the caller's membership there. */
  fromBearer(ctx: AppContext, token: string, workspaceId?: string): Promise<Actor | null>;
  fromSession(ctx: AppContext, token: string, workspaceId?: string): Promise<Actor | null>;
  touch(ctx: AppContext, actor: Actor): Promise<void>;
  /** Keeps the credential lookups held in memory current while the app runs; returns how to stop. */
  watch(ctx: AppContext): Promise<() => Promise<void>>;
};

/** Which bearer kinds each mode takes (docs/api.md "Surfaces and credentials"); anything else is a 401. */
function bearerAllowed(creds: Credentials, mode: AuthMode, token: string): boolean {
  if (token.startsWith(creds.patPrefix)) return mode === 'user' || mode === 'user-or-key';
  if (token.startsWith(creds.apiKeyPrefix)) return mode === 'key' || mode === 'user-or-key';
  return false;
}

const cookieAllowed = (mode: AuthMode) => mode === 'session' || mode === 'user' || mode === 'user-or-key';

/** The app's own origins: PUBLIC_BASE_URL, or the scheme and Host the request came to. */
export function isOwnOrigin(ctx: AppContext, request: FastifyRequest, origin: string): boolean {
  if (ctx.config.publicBaseUrl && origin === new URL(ctx.config.publicBaseUrl).origin) return true;
  const host = request.headers.host;
  return !!host && origin === `${request.protocol}://${host}`;
}

async function resolveActor(
  ctx: AppContext,
  creds: Credentials,
  request: FastifyRequest,
  mode: AuthMode,
): Promise<Actor> {
  // The path's workspace: the credential lookup reads the caller's membership there in the same
  // query, and the tenant guard uses it (docs/performance.md).
  const workspaceId = (request.params as Record<string, string | undefined> | undefined)?.workspaceId;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer ([!-~]+)$/.exec(header);
    if (!match?.[1] || !bearerAllowed(creds, mode, match[1]))
      throw unauthorized('This credential is not accepted here');
    const actor = await creds.fromBearer(ctx, match[1], workspaceId);
    if (!actor) throw unauthorized('Invalid or revoked token');
    return actor;
  }
  const cookie = request.cookies[creds.sessionCookie];
  if (cookie && cookieAllowed(mode)) {
    const actor = await creds.fromSession(ctx, cookie, workspaceId);
    if (actor) {
      // CSRF guard (docs/api.md "Surfaces and credentials"): cookie-authenticated writes come from our own
      // origin.
      if (!SAFE_METHODS.has(request.method)) {
        const origin = request.headers.origin;
        if (!origin || !isOwnOrigin(ctx, request, origin)) throw forbidden('Cross-origin request refused');
      }
      return actor;
    }
    throw unauthorized('Session expired or invalid; sign in again');
  }
  throw unauthorized();
}

const rateKey = (actor: Actor) => (actor.kind === 'apiKey' ? `k:${actor.keyId}` : `u:${actor.userId}`);

/**
 * onRequest hook: authenticates per the route's `config.auth` before the body is parsed,
 * then applies the per-caller rate limit (docs/api.md "Rate limits").
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext, creds: Credentials) {
  app.decorateRequest('actor', null);
  let unwatch: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unwatch = await creds.watch(ctx);
  });
  app.addHook('onClose', async () => {
    await unwatch?.();
  });
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth ?? 'none';
    // The widget surface identifies its caller in the tenant resolver (http/tenant.ts).
    if (mode === 'none' || mode === 'widget') return;
    const actor = await resolveActor(ctx, creds, request, mode);
    request.actor = actor;
    creds.touch(ctx, actor).catch((err) => request.log.warn({ err }, 'lastUsedAt update failed'));
    await consume(ctx.limits.api, rateKey(actor), 'rate_limit:api');
  });
}

/** The authenticated actor of a route that requires one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized:api', 'Authentication required');
  return request.actor;
}

/** The user id of a route that only users reach. */
export function userIdOf(request: FastifyRequest): string {
  const actor = actorOf(request);
  if (actor.kind !== 'user') throw unauthorized('This credential is not accepted here');
  return actor.userId;
}
