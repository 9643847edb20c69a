import { errorBody } from '@parley/contract/envelope';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendError } from '../../http/error-handler.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import type { FeatureApp } from '../../http/feature.ts';
import { registerJsonParser } from '../../http/well-formed.ts';
import * as repo from './widget.repo.ts';
import { corsHeaders, grantedOrigin, grantOrigin, lookupGrantedOrigin } from './widget-access.ts';
import { consumeWidgetPost } from './widget-limits.ts';
import { hostAllowed, matchingEntries, requestOrigin } from './widget-origin.ts';

/**
 * What every public widget route shares (docs/widget.md), registered on each widget route file's
 * own scope:
 * - every POST counts against the per-IP budget before anything else runs (GET and OPTIONS do
 *   not); the client IP is Fastify's `request.ip`, which honours `X-Forwarded-For` only with
 *   `TRUST_PROXY` (app.ts);
 * - every answer to an allowlisted origin carries the CORS headers of docs/widget.md "CORS", errors included,
 *   so the script can read them; other origins get none.
 */
export async function registerWidgetSurface(app: FeatureApp, ctx: AppContext) {
  // The request's checked origin (widget-access.ts `grantOrigin`), declared for a stable shape.
  app.decorateRequest('widgetOrigin', undefined);
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST') await consumeWidgetPost(ctx, request.ip);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // Successful answers went through authorizeWidget; errors may have come before it.
    const origin = reply.statusCode >= 400 ? await lookupGrantedOrigin(ctx, request) : grantedOrigin(request);
    if (origin) reply.headers(corsHeaders(origin));
    else reply.header('vary', 'Origin');
    return payload;
  });
  // Bodyless POSTs (end) from clients that always send `Content-Type: application/json`: an
  // empty body is no body here; anything else goes to the app's JSON parser (UTF-8 checked).
  registerJsonParser(app, { emptyIsNoBody: true });
}

/** The public routes' error answers (docs/widget.md "Errors"). */

/** OpenAPI: routes after init carry the widget session token. */
export const tokenSecurity = [{ widgetSession: [] }];

const preflightDoc = {
  tags: ['widget'],
  summary: 'CORS preflight of every public widget path',
  description:
    'Answers 204 with the CORS headers when the requesting origin is on the widget allowlist (for `/api/widget/tickets/create`, on the allowlist of any enabled widget); 403 `forbidden:api` without CORS headers otherwise; 404 `not_found:widget` for an unknown assistant. Never counted against the rate limit.',
  params: z.object({ '*': z.string() }),
  response: { 204: z.undefined(), 403: errorBody, 404: errorBody },
};

/**
 * `OPTIONS /api/widget/*` (docs/decisions/0007-widget.md): a preflight is answered from the same
 * allowlist as the request it announces. A disabled widget's allowlisted origin still passes, so
 * the request that follows can show its 404 to the page.
 */
export function registerPreflight(app: FeatureApp, ctx: AppContext) {
  app.options('/api/widget/*', { schema: preflightDoc }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'].split('?')[0] ?? '';
    const [first = '', second] = path.split('/');
    const found = requestOrigin(request.headers);
    let allowed: boolean;
    if (first === 'tickets' && second === 'create') {
      // The assistant is in the body, which a preflight does not carry: any enabled widget's list.
      allowed = !!found && (await repo.anyEnabledWidgetAllows(ctx.db, matchingEntries(found.hostname)));
    } else {
      const target = first.length <= 100 ? await repo.findWidgetOrigins(ctx.db, first) : undefined;
      if (!target) {
        grantOrigin(request, null);
        return sendError(reply, new AppError('not_found:widget', 'Widget not found or not enabled'));
      }
      allowed = !!target.allowedDomains && hostAllowed(target.allowedDomains, found?.hostname ?? null);
    }
    if (!allowed || !found) {
      grantOrigin(request, null);
      return sendError(reply, forbidden('This website is not allowed to use this widget'));
    }
    grantOrigin(request, found.origin);
    return reply.status(204).send();
  });
}
