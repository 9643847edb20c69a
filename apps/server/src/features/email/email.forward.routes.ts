import { EMAIL_MAX_BYTES } from '@parley/contract/email';
import { dataOf } from '@parley/contract/envelope';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { ingestEmail } from './email.inbound.ts';
import * as repo from './email.repo.ts';

const TYPE = 'message/rfc822';

/**
 * `POST /api/email/inbound/{token}` (docs/email.md "Inbound by forwarding"): the raw message,
 * stored and answered 202 at once; the `email-inbound` job does the rest. Its own scope, for the
 * raw-body parser.
 */
export const emailForwardRoutes: Feature = (app, ctx) => {
  app.addContentTypeParser(TYPE, { parseAs: 'buffer', bodyLimit: EMAIL_MAX_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/email/inbound/:token',
    {
      config: { auth: 'none' },
      bodyLimit: EMAIL_MAX_BYTES,
      schema: {
        tags: ['Email'],
        summary: 'A forwarded email',
        description:
          "The raw message as `message/rfc822`, up to 25 MB (413 beyond). 202 once stored (a repeated Message-ID: 202, stored once); 404 for an unknown token. The token is the last part of the channel's `forwardUrl`.",
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 202: dataOf(z.object({ accepted: z.literal(true) })) },
      },
    },
    async (request, reply) => {
      const found = await repo.findByForwardToken(ctx.db, sha256Hex(request.params.token));
      if (!found) throw notFound('Email channel');
      const raw = request.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0) {
        throw badRequest('The raw message is expected as message/rfc822', { body: 'Required' });
      }
      await ingestEmail(ctx, found, raw, 'forward');
      return reply.status(202).send({ data: { accepted: true as const } });
    },
  );
};
