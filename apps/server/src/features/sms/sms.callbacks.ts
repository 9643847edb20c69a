import { errorBody, idParam } from '@parley/contract/envelope';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { planHas } from '../../http/actor.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { FeatureApp } from '../../http/feature.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { planStanding } from '../workspaces/plan.ts';
import { type FormParams, field, parseForm, validSignature } from './provider.ts';
import { applyDeliveryStatus, deliveryStatusOf } from './sms.outbound.ts';
import * as repo from './sms.repo.ts';
import { tokenOf } from './sms.service.ts';

/** The provider's form posts are small (a message is at most 1,600 characters); more is not theirs. */
export const FORM_LIMIT_BYTES = 64 * 1024;
/** An empty TwiML answer: the reply follows through the REST API (docs/sms.md "Inbound messages"). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const SIGNATURE_HEADER = 'x-twilio-signature';
const MAX_BODY_CHARS = 10_000;

const params = z.object({ assistantId: idParam });
const NUL = String.fromCharCode(0);
/**
 * The form exactly as the provider signed it, by the parsed body handed to the route. The route
 * sees the form without NUL characters (PostgreSQL text cannot hold them, and the app refuses them
 * in any input), so a real message that holds one is still stored, not refused.
 */
const SIGNED_FORM = Symbol('signed form');
type RouteForm = FormParams & { [SIGNED_FORM]?: FormParams };
function withoutNul(form: FormParams): FormParams {
  const out: FormParams = Object.create(null);
  for (const [key, value] of Object.entries(form)) {
    const k = key.replaceAll(NUL, '');
    const v = Array.isArray(value) ? value.map((x) => x.replaceAll(NUL, '')) : value.replaceAll(NUL, '');
    const seen = out[k];
    out[k] = seen === undefined ? v : [...[seen].flat(), ...[v].flat()];
  }
  return out;
}
const tags = ['SMS provider callbacks'];
const twiml = z.string().describe('An empty TwiML document, `text/xml`');
const refused = () => new AppError('forbidden:api', 'The request signature is not valid');

type Verified = {
  found: NonNullable<Awaited<ReturnType<typeof repo.findForCallback>>>;
  form: FormParams;
  base: string;
};

/**
 * The URLs the provider may have signed: the public one (PUBLIC_BASE_URL) and the one this
 * request came to (behind a proxy, with TRUST_PROXY, its forwarded scheme and host).
 */
function signedUrls(ctx: AppContext, request: FastifyRequest): string[] {
  const urls: string[] = [];
  if (ctx.config.publicBaseUrl) urls.push(ctx.config.publicBaseUrl + request.url);
  urls.push(`${request.protocol}://${request.host}${request.url}`);
  return urls;
}

/**
 * Loads the assistant's configuration (404 without one) and checks the provider's signature
 * with its token over the URL and the form (403 and a warning when it fails: nothing is stored).
 */
async function verify(ctx: AppContext, request: FastifyRequest, assistantId: string): Promise<Verified> {
  const found = await repo.findForCallback(ctx.db, assistantId);
  if (!found) throw notFound('SMS configuration');
  const body = request.body;
  const form: FormParams =
    body &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      ? (body as FormParams)
      : {};
  const signed = (form as RouteForm)[SIGNED_FORM] ?? form;
  const header = request.headers[SIGNATURE_HEADER];
  const signature = typeof header === 'string' ? header : undefined;
  const token = tokenOf(ctx, found.config);
  for (const url of signedUrls(ctx, request)) {
    if (validSignature(token, signature, [url], signed)) {
      return { found, form, base: url.slice(0, url.length - request.url.length) };
    }
  }
  request.log.warn(
    { assistantId, ip: request.ip, url: request.url, signed: Boolean(signature) },
    'sms callback refused: invalid provider signature',
  );
  throw refused();
}

const clean = (v: string | undefined, max: number) => (v === undefined ? undefined : v.slice(0, max));

/** `POST /api/sms/webhook/{id}` and `POST /api/sms/status/{id}` (docs/sms.md). */
export function registerSmsCallbacks(app: FeatureApp, ctx: AppContext) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      const form = parseForm(typeof body === 'string' ? body : body.toString('utf8'));
      // Carried by the body itself (a symbol key: no entry of the form), not a module-level map.
      const forRoute: RouteForm = withoutNul(form);
      Object.defineProperty(forRoute, SIGNED_FORM, { value: form });
      done(null, forRoute);
    },
  );

  app.post(
    '/api/sms/webhook/:assistantId',
    {
      config: { auth: 'none' },
      bodyLimit: FORM_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'An inbound SMS from the provider',
        description:
          "The provider's form post, signed with the configuration's auth token (`X-Twilio-Signature`). A valid one is stored once per provider message id and answered at once with an empty TwiML `<Response/>` (`text/xml`); the AI's reply follows through the provider's REST API. 403 when the signature is not valid (nothing stored), 404 when the assistant has no SMS configuration.",
        params,
        response: { 200: twiml, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { assistantId } = request.params;
      const { found, form, base } = await verify(ctx, request, assistantId);
      const { config } = found;
      if (!config.isEnabled || !planHas(planStanding(found).plan, 'channels')) {
        // Switched off (or the plan no longer has channels): acknowledged, not answered.
        request.log.info({ assistantId }, 'sms received while the channel is off; not stored');
        return reply.type('text/xml').send(EMPTY_TWIML);
      }
      const sid = field(form, 'MessageSid') ?? field(form, 'SmsMessageSid');
      const from = clean(field(form, 'From'), 64);
      const to = clean(field(form, 'To'), 64) ?? config.phoneNumber;
      const text = clean(field(form, 'Body'), MAX_BODY_CHARS) ?? '';
      const missing: Record<string, string> = {};
      if (!sid || !/^[A-Za-z0-9]{2,64}$/.test(sid)) missing.MessageSid = 'Required: the provider message id';
      if (!from) missing.From = 'Required';
      if (Object.keys(missing).length > 0) throw badRequest('Validation failed', missing);
      const answersHere = ctx.jobs.runs('sms-inbound');
      const id = await repo.insertInbound(
        ctx.db,
        {
          id: newId('smsi'),
          workspaceId: config.workspaceId,
          assistantId,
          providerSid: sid as string,
          fromNumber: from as string,
          toNumber: to,
          body: text,
          publicBase: base,
          receivedAt: now(),
        },
        // The answering job here is woken directly; wherever else it runs (JOBS, docs/jobs.md
        // "Which process runs which job"), by the NOTIFY its LISTEN hears.
        !answersHere,
      );
      if (id && answersHere) ctx.jobs.wake('sms-inbound');
      return reply.type('text/xml').send(EMPTY_TWIML);
    },
  );

  app.post(
    '/api/sms/status/:assistantId',
    {
      config: { auth: 'none' },
      bodyLimit: FORM_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'A delivery status callback from the provider',
        description:
          "Signed like the inbound post. Moves the reply's `deliveryStatus` forward (`queued`, `sent`, `delivered`, `undelivered`, `failed`; a failure is never overwritten by a later success) and keeps the provider's `ErrorCode`. 403 when the signature is not valid (nothing recorded).",
        params,
        response: { 200: twiml, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { assistantId } = request.params;
      const { form } = await verify(ctx, request, assistantId);
      const sid = field(form, 'MessageSid') ?? field(form, 'SmsSid');
      const raw = field(form, 'MessageStatus') ?? field(form, 'SmsStatus');
      const status = deliveryStatusOf(raw);
      const errorCode = clean(field(form, 'ErrorCode'), 40) || null;
      if (!sid || !/^[A-Za-z0-9]{2,64}$/.test(sid))
        throw badRequest('Validation failed', { MessageSid: 'Required' });
      if (status) {
        const at = now();
        await repo.insertStatusEvent(ctx.db, {
          id: newId('smst'),
          assistantId,
          providerSid: sid,
          status,
          errorCode,
          receivedAt: at,
        });
        await applyDeliveryStatus(ctx, assistantId, sid, status, errorCode);
      }
      return reply.type('text/xml').send(EMPTY_TWIML);
    },
  );
}
