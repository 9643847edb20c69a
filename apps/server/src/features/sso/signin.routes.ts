import { errorBody, idParam, urlData } from '@parley/contract/envelope';
import { oidcCallbackQuery, startBody } from '@parley/contract/sso';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AppContext, publicBaseUrl } from '../../context.ts';
import { isOwnOrigin } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { FeatureApp } from '../../http/feature.ts';
import { consume } from '../../http/rate-limits.ts';
import { resourceOf } from '../../http/tenant.ts';
import { IdentityError } from '../../providers/identity/errors.ts';
import { serviceProviderMetadata } from '../../providers/identity/saml.ts';
import { setSessionCookie } from '../auth/auth.routes.ts';
import { spUrls } from './connections.service.ts';
import * as signin from './signin.service.ts';
import { findConnectionById } from './sso.repo.ts';

/** Binds an OIDC sign-in to the browser that started it (docs/sso.md). */
export const FLOW_COOKIE = 'parley.sso-flow';
const FAILED = '/sign-in?error=sso_failed';
/** Where the settings page's test popup lands (apps/web SsoTestResult). */
const TEST_RESULT = '/sso/test-result';
const FORM_LIMIT = 512 * 1024;
const tags = ['SSO sign-in'];
const urlOut = urlData;
const oneParams = z.object({ workspaceId: idParam, connectionId: idParam });

function setFlowCookie(ctx: AppContext, reply: FastifyReply, browser: string | undefined) {
  if (!browser) return;
  reply.setCookie(FLOW_COOKIE, browser, {
    path: '/api/auth/sso',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicBaseUrl?.startsWith('https://') ?? false,
    maxAge: 600,
  });
}

/**
 * The end of a sign-in: the session cookie and the app, or the sign-in page with `sso_failed`
 * and the reason in the log only (never 5xx: docs/sso.md). A test sign-in ends on the test's
 * result page either way (the settings page's popup reports it to the page that opened it).
 */
async function conclude(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (mark: signin.FlowMark) => Promise<signin.Completed>,
) {
  const base = publicBaseUrl(ctx, request.headers.host);
  reply.clearCookie(FLOW_COOKIE, { path: '/api/auth/sso' });
  const mark: signin.FlowMark = { test: false };
  try {
    const done = await run(mark);
    if (done.kind === 'test') {
      return reply.redirect(`${base}${TEST_RESULT}?result=ok&email=${encodeURIComponent(done.email)}`, 302);
    }
    setSessionCookie(ctx, reply, done.session);
    return reply.redirect(`${base}/`, 302);
  } catch (err) {
    if (err instanceof IdentityError) request.log.warn({ reason: err.message }, 'sso sign-in refused');
    else request.log.error({ err }, 'sso sign-in failed');
    // A fixed word the sign-in page turns into a sentence; never the provider's text itself.
    const reason = err instanceof signin.SignInRefused ? `&reason=${err.reason}` : '';
    return reply.redirect(
      mark.test ? `${base}${TEST_RESULT}?result=failed` : `${base}${FAILED}${reason}`,
      302,
    );
  }
}

export function registerSignIn(app: FeatureApp, ctx: AppContext) {
  const base = (request: FastifyRequest) => publicBaseUrl(ctx, request.headers.host);

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      done(
        null,
        Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))),
      );
    },
  );

  app.post(
    '/api/auth/sso/start',
    {
      schema: {
        tags,
        description:
          "\"Continue with SSO\": the identity provider's URL for the email's domain (a verified domain of an Enterprise workspace's connection, matched case-insensitively): the OIDC authorization URL (PKCE S256, state, nonce; a short-lived cookie binds the flow to this browser) or the SAML SSO URL with `SAMLRequest`. 404 when no connection has that verified domain.",
        body: startBody,
        response: { 200: urlOut, 404: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (origin && !isOwnOrigin(ctx, request, origin)) throw forbidden('Cross-origin request refused');
      await consume(ctx.limits.auth, `ip:${request.ip}`, 'rate_limit:api');
      const started = await signin.start(ctx, request.body.email, base(request));
      setFlowCookie(ctx, reply, started.browser);
      return { data: { url: started.url } };
    },
  );

  app.post(
    '/api/workspaces/:workspaceId/sso/connections/:connectionId/test',
    {
      config: { auth: 'session', permission: 'sso.manage', planFeature: 'sso', resources: ['ssoConnection'] },
      schema: {
        tags: ['SSO'],
        description:
          "Starts a test sign-in through this connection (the settings page opens the URL in a popup). It runs every check of a real sign-in, unverified domains refused too, but signs no one in: it ends at `/sso/test-result?result=ok&email=...`, or `/sso/test-result?result=failed` once the answer is known to be the test's (else the sign-in page's `sso_failed`).",
        params: oneParams,
        response: { 200: urlOut },
      },
    },
    async (request, reply) => {
      const started = await signin.startWith(ctx, resourceOf(request, 'ssoConnection'), base(request), true);
      setFlowCookie(ctx, reply, started.browser);
      return { data: { url: started.url } };
    },
  );

  app.get(
    '/api/auth/sso/oidc/callback',
    {
      schema: {
        tags,
        description:
          "Where the OpenID Connect provider returns. Success: 302 to the app with the session cookie. Any failure (state, nonce, PKCE, the ID token's signature, audience or expiry, a member removed from the workspace): 302 to `/sign-in?error=sso_failed`; an `email` that is not one valid address adds `&reason=email_invalid`, one whose domain is not exactly a verified domain of the connection `&reason=email_domain`.",
        querystring: oidcCallbackQuery,
      },
    },
    async (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const url = new URL(`${base(request)}/api/auth/sso/oidc/callback${query}`);
      return conclude(ctx, request, reply, (mark) =>
        signin.completeOidc(ctx, url, request.cookies[FLOW_COOKIE], mark),
      );
    },
  );

  app.post(
    '/api/auth/sso/saml/:connectionId/acs',
    {
      bodyLimit: FORM_LIMIT,
      schema: {
        tags,
        description:
          'The SAML assertion consumer service (HTTP-POST binding: `SAMLResponse`, `RelayState`). Success: 302 to the app with the session cookie. Any failure (unsigned or wrongly signed, another audience or recipient, expired, `InResponseTo` unknown or already answered, an assertion id seen before): 302 to `/sign-in?error=sso_failed`; an email that is not one valid address adds `&reason=email_invalid`, one whose domain is not exactly a verified domain of the connection `&reason=email_domain`.',
        params: z.object({ connectionId: idParam }),
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const response = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : '';
      return conclude(ctx, request, reply, async (mark) => {
        if (!response) throw new IdentityError('No SAMLResponse');
        return signin.completeSaml(ctx, request.params.connectionId, response, base(request), mark);
      });
    },
  );

  app.get(
    '/api/auth/sso/saml/:connectionId/metadata',
    {
      schema: {
        tags,
        description:
          "The service provider's SAML metadata (public XML): entity id and ACS URL, for the IdP's administrator.",
        params: z.object({ connectionId: idParam }),
      },
    },
    async (request, reply) => {
      const c = await findConnectionById(ctx.db, request.params.connectionId);
      if (c?.type !== 'saml') throw notFound('SSO connection');
      const idp = { entityId: c.idpEntityId ?? '', ssoUrl: c.idpSsoUrl ?? '', certs: c.idpCerts ?? [] };
      const xml = serviceProviderMetadata(idp, spUrls(base(request), c.id), {
        saveAsync: async () => null,
        getAsync: async () => null,
        removeAsync: async () => null,
      });
      return reply.type('application/samlmetadata+xml').send(xml);
    },
  );
}
