import {
  createdTokenSchema,
  createTokenBody,
  loginBody,
  sessionSchema,
  signedInSchema,
  signupBody,
  tokenSchema,
} from '@parley/contract/auth';
import { dataOf, errorBody } from '@parley/contract/envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { actorOf, isOwnOrigin, userIdOf } from '../../http/auth.ts';
import { conflictResponse, iso, isoOrNull } from '../../http/envelope.ts';
import { forbidden } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { consume } from '../../http/rate-limits.ts';
import { toUser } from './auth.serialize.ts';
import * as auth from './auth.service.ts';
import { SESSION_COOKIE } from './credentials.service.ts';

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, session: auth.NewSession) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicBaseUrl?.startsWith('https://') ?? false,
    expires: session.expiresAt,
  });
}

/** Sign-up and sign-in: per-IP attempt limit, and a foreign Origin is refused (login CSRF). */
async function guardAuthAttempt(ctx: AppContext, request: FastifyRequest) {
  const origin = request.headers.origin;
  if (origin && !isOwnOrigin(ctx, request, origin)) throw forbidden('Cross-origin request refused');
  await consume(ctx.limits.auth, `ip:${request.ip}`, 'rate_limit:api');
}

const userData = dataOf(signedInSchema);
/** Sign-up and sign-in: an address taken (409) and the per-IP attempt limit (429), beside the derived ones. */
const errors = { ...conflictResponse, 429: errorBody };

/** Accounts and personal access tokens (docs/accounts.md). */
export const authRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/auth/signup',
    { schema: { tags: ['auth'], body: signupBody, response: { 201: userData, ...errors } } },
    async (request, reply) => {
      await guardAuthAttempt(ctx, request);
      const { user, session } = await auth.signup(ctx, request.body);
      setSessionCookie(ctx, reply, session);
      return reply.status(201).send({ data: { user: toUser(user) } });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { tags: ['auth'], body: loginBody, response: { 200: userData, ...errors } } },
    async (request, reply) => {
      await guardAuthAttempt(ctx, request);
      const { user, session } = await auth.login(ctx, request.body);
      setSessionCookie(ctx, reply, session);
      return { data: { user: toUser(user) } };
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { auth: 'session' }, schema: { tags: ['auth'], response: { 204: z.undefined() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      if (actor.kind === 'user' && actor.via === 'session')
        await auth.logout(ctx, actor.userId, actor.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/auth/session',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        response: { 200: dataOf(sessionSchema) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      if (actor.kind !== 'user' || actor.via !== 'session') throw forbidden();
      const { user, expiresAt } = await auth.currentSession(ctx, actor.userId, actor.sessionId);
      return { data: { user: toUser(user), expiresAt: iso(expiresAt) } };
    },
  );

  app.post(
    '/api/auth/tokens',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        body: createTokenBody,
        response: { 201: dataOf(createdTokenSchema) },
      },
    },
    async (request, reply) => {
      const { row, token } = await auth.createPersonalToken(ctx, userIdOf(request), request.body.name);
      return reply
        .status(201)
        .send({ data: { id: row.id, name: row.name, token, createdAt: iso(row.createdAt) } });
    },
  );

  app.get(
    '/api/auth/tokens',
    {
      config: { auth: 'session' },
      schema: { tags: ['auth'], response: { 200: z.object({ data: z.array(tokenSchema) }) } },
    },
    async (request) => {
      const rows = await auth.listPersonalTokens(ctx, userIdOf(request));
      return {
        data: rows.map((t) => ({
          id: t.id,
          name: t.name,
          last4: t.last4,
          createdAt: iso(t.createdAt),
          lastUsedAt: isoOrNull(t.lastUsedAt),
        })),
      };
    },
  );

  app.delete(
    '/api/auth/tokens/:tokenId',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        params: z.object({ tokenId: z.string().max(100) }),
        response: { 204: z.undefined() },
      },
    },
    async (request, reply) => {
      await auth.revokePersonalToken(ctx, userIdOf(request), request.params.tokenId);
      return reply.status(204).send();
    },
  );
};
