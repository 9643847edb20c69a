import type { Language } from '@parley/contract/languages';
import type { Plan } from '@parley/contract/plans';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import type { Surface } from '../../http/tenant.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import type { ConversationRow } from '../conversations/conversations.service.ts';
import { type KnownKnowledge, scopeFromPairs } from '../knowledge/knowledge.service.ts';
import { planStanding } from '../workspaces/plan.ts';
import { tenantIn } from '../workspaces/tenant.service.ts';
import * as repo from './widget.repo.ts';
import { hostAllowed, requestOrigin } from './widget-origin.ts';

/**
 * The three-layer check of every public widget request (docs/widget.md),
 * in this order:
 * 1. the assistant exists and its widget is enabled, else 404 `not_found:widget`;
 * 2. `Origin` (else `Referer`) is on the widget's allowlist, else 403 `forbidden:api`;
 * 3. when the route needs a session, `Authorization: Widget <token>` names a session of this
 *    assistant (tokens are stored only as SHA-256) and, when the request addresses a session,
 *    that very session; else 401 `unauthorized:widget`.
 * Exported for the session event stream (GET .../sessions/{sid}/events) with `corsHeaders`.
 */

export type WidgetConfig = repo.WidgetConfigRow;
export type WidgetSession = repo.WidgetSessionRow;

export type WidgetAccess = {
  assistant: AssistantRow;
  config: WidgetConfig;
  plan: Plan;
  /** The workspace's agreed Enterprise credits (Tenant.monthlyCredits). */
  monthlyCredits: number | null;
  /** The workspace's default language (docs/languages.md "Widget"). */
  defaultLanguage: Language;
  /** The allowlisted requesting origin, e.g. `https://shop.example.com`. */
  origin: string;
  session?: WidgetSession;
  /** What the same query read of the assistant's knowledge: a chat does not read it again. */
  knowledge?: KnownKnowledge;
  /** The session's conversation as the same query read it (undefined: not read). */
  conversation?: ConversationRow;
};

export type WidgetAccessOptions = {
  /** The session the request addresses (path or body); the token must be that session's. */
  sessionId?: string;
  requireToken: boolean;
};

/** The CORS response headers (docs/widget.md "CORS"), plus `Vary: Origin` for caches. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type, Authorization',
    'access-control-max-age': '86400',
    vary: 'Origin',
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The origin of a widget request once layer 2 checked it (or it was looked up for an error
     * answer): null = not allowed, undefined = unchecked. Declared by widget-surface.ts on the
     * widget scopes; kept on the request itself rather than in a module-level map.
     */
    widgetOrigin?: string | null;
  }
}

/** The allowlisted origin of a request already checked, null if refused, undefined if unchecked. */
export const grantedOrigin = (request: FastifyRequest) => request.widgetOrigin;
export const grantOrigin = (request: FastifyRequest, origin: string | null) => {
  request.widgetOrigin = origin;
};

const widgetNotFound = () => new AppError('not_found:widget', 'Widget not found or not enabled');
export const unauthorizedWidget = (message = 'A valid widget session token is required') =>
  new AppError('unauthorized:widget', message);

/** `Authorization: Widget <token>`; anything else (or nothing) is no token. */
export function widgetToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || header.length > 300) return undefined;
  return /^Widget +([!-~]{16,256})$/i.exec(header.trim())?.[1];
}

export async function authorizeWidget(
  ctx: AppContext,
  request: FastifyRequest,
  assistantId: string,
  opts: WidgetAccessOptions,
): Promise<WidgetAccess> {
  // A route that needs a session reads it in the same statement as layers 1 and 2 (layer 3 is
  // still judged after them: a refused origin answers 403 whatever the token).
  const token = opts.requireToken ? widgetToken(request) : undefined;
  const target =
    assistantId.length <= 100
      ? await repo.findWidgetTarget(ctx.db, assistantId, token ? sha256Hex(token) : null)
      : undefined;
  const found = requestOrigin(request.headers);
  const allowed = !!target?.config && hostAllowed(target.config.allowedDomains, found?.hostname ?? null);
  // An allowlisted page may read even the 404 of a disabled widget, so it can say so.
  grantOrigin(request, allowed && found ? found.origin : null);
  if (!target?.config?.isEnabled) throw widgetNotFound();
  if (!allowed || !found) throw forbidden('This website is not allowed to use this widget');
  const access: WidgetAccess = {
    assistant: target.assistant,
    config: target.config,
    ...planStanding(target),
    defaultLanguage: target.defaultLanguage,
    origin: found.origin,
    knowledge: { scope: scopeFromPairs(target.namespaces), hasRealtime: target.hasRealtime },
  };
  if (!opts.requireToken) return access;
  const own = target.session?.assistantId === target.assistant.id ? target.session : undefined;
  const session = sessionFor(own, opts.sessionId);
  const conversation = target.conversation;
  return {
    ...access,
    session,
    ...(conversation?.workspaceId === target.assistant.workspaceId ? { conversation } : {}),
  };
}

/** Layer 3 on the session the token named (undefined: none of this assistant's). */
function sessionFor(session: WidgetSession | undefined, sessionId: string | undefined): WidgetSession {
  if (!session) throw unauthorizedWidget();
  if (sessionId !== undefined && session.id !== sessionId) {
    throw unauthorizedWidget('The session token does not belong to this session');
  }
  return session;
}

/**
 * Layer 3 alone, for a route that learns which session it addresses only after layers 1 and 2
 * (Form A init resuming a session): the token must name a session of this assistant, and
 * `sessionId`, when given, must be that session.
 */
export async function withSession(
  ctx: AppContext,
  request: FastifyRequest,
  access: WidgetAccess,
  sessionId?: string,
): Promise<WidgetAccess & { session: WidgetSession }> {
  const token = widgetToken(request);
  if (!token) throw unauthorizedWidget();
  const session = await repo.findSessionByTokenHash(ctx.db, sha256Hex(token));
  const own = session?.assistantId === access.assistant.id ? session : undefined;
  return { ...access, session: sessionFor(own, sessionId) };
}

/**
 * The CORS origin for an error answered before the handler checked anything (429, 413, bad
 * JSON): the same allowlist rule, looked up once. Never throws.
 */
export async function lookupGrantedOrigin(ctx: AppContext, request: FastifyRequest): Promise<string | null> {
  const known = request.widgetOrigin;
  if (known !== undefined) return known;
  const assistantId = (request.params as { assistantId?: unknown } | undefined)?.assistantId;
  const found = requestOrigin(request.headers);
  let origin: string | null = null;
  if (typeof assistantId === 'string' && assistantId.length <= 100 && found) {
    const target = await repo.findWidgetOrigins(ctx.db, assistantId).catch(() => undefined);
    if (target?.allowedDomains && hostAllowed(target.allowedDomains, found.hostname)) origin = found.origin;
  }
  grantOrigin(request, origin);
  return origin;
}

declare module '../../http/resources.ts' {
  interface Resources {
    /** The widget surface's caller: the assistant, its widget, the page's origin and the session. */
    widget: WidgetAccess;
  }
}

/** A string field of the not-yet-validated input. */
function rawField(source: unknown, key: string): string | undefined {
  const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The widget surface for the tenant resolver (http/tenant.ts): the three layers (the widget
 * exists and is on → the page's origin is allowed → the token names the session) before the input
 * is validated. The assistant and session come from the path, else the body or query. A body
 * naming no assistant has nothing to check: validation answers it (400).
 */
export const widgetSurface: Surface = async (ctx, request) => {
  const { params, body, query } = request;
  const assistantId = rawField(params, 'assistantId') ?? rawField(body, 'assistantId');
  if (assistantId === undefined) return undefined;
  const sessionId =
    rawField(params, 'sessionId') ?? rawField(body, 'sessionId') ?? rawField(query, 'sessionId');
  const requireToken = request.routeOptions.config?.widgetToken === 'required';
  const access = await authorizeWidget(ctx, request, assistantId, { requireToken, sessionId });
  return { tenant: tenantIn(access.assistant.workspaceId, null, access), loaded: { widget: access } };
};
