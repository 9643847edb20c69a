import {
  changePasswordBody,
  deleteAccountBody,
  exportBody,
  exportParams,
  exportStarted,
  patchAccountBody,
} from '@parley/contract/account';
import { userSchema } from '@parley/contract/auth';
import { dataOf } from '@parley/contract/envelope';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import { actorOf } from '../../http/auth.ts';
import { iso } from '../../http/envelope.ts';
import { unauthorized } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { consume } from '../../http/rate-limits.ts';
import { toUser } from '../auth/auth.serialize.ts';
import { SESSION_COOKIE } from '../auth/credentials.service.ts';
import * as account from './account.service.ts';
import { openExport, requestExport } from './export.service.ts';

/** Account routes are the session surface: the browser cookie only (docs/accounts.md). */
const config = { auth: 'session' } as const;
const tags = ['account'];

function sessionOf(request: FastifyRequest) {
  const actor = actorOf(request);
  if (actor.kind !== 'user' || actor.via !== 'session') throw unauthorized('Sign in with a session');
  return actor;
}

/** docs/accounts.md: the signed-in user's profile, password, data export and deletion. */
export const accountRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/account',
    { config, schema: { tags, response: { 200: dataOf(userSchema) } } },
    async (request) => ({ data: toUser(await account.getAccount(ctx, sessionOf(request).userId)) }),
  );

  app.patch(
    '/api/account',
    { config, schema: { tags, body: patchAccountBody, response: { 200: dataOf(userSchema) } } },
    async (request) => {
      const user = await account.updateAccount(ctx, sessionOf(request).userId, request.body);
      return { data: toUser(user) };
    },
  );

  app.post(
    '/api/account/password',
    { config, schema: { tags, body: changePasswordBody, response: { 204: z.undefined() } } },
    async (request, reply) => {
      const { userId, sessionId } = sessionOf(request);
      await account.changePassword(ctx, userId, sessionId, request.body);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/account/export',
    {
      config,
      schema: {
        tags,
        body: exportBody,
        response: { 202: dataOf(exportStarted) },
      },
    },
    async (request, reply) => {
      const base = publicBaseUrl(ctx, request.headers.host);
      const { email, expiresAt } = await requestExport(ctx, sessionOf(request).userId, base);
      return reply.status(202).send({ data: { email, expiresAt: iso(expiresAt) } });
    },
  );

  app.get(
    '/api/account/exports/:token',
    {
      config,
      schema: {
        tags,
        params: exportParams,
        response: { 200: z.unknown().describe('The export file (JSON)') },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      // docs/api.md "Rate limits": file downloads, 20 a minute per user; unknown tokens count too.
      await consume(ctx.limits.downloads, `u:${userId}`, 'rate_limit:api');
      const file = await openExport(ctx, userId, request.params.token);
      const name = `parley-export-${iso(file.createdAt).slice(0, 10)}.json`;
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );

  app.delete(
    '/api/account',
    { config, schema: { tags, body: deleteAccountBody, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await account.deleteAccount(ctx, sessionOf(request).userId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );
};
