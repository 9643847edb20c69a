import { ERROR_STATUS, type ErrorCode } from '@parley/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, pgErrorCode } from '../db/client.ts';
import { AppError, serviceUnavailable } from './errors.ts';

type Body = { error: string; code: ErrorCode; details?: Record<string, unknown> };

/**
 * Which bad_request / not_found flavour a path uses (docs/api.md "Errors": chat and widget have their own
 * codes).
 */
function surface(url: string): 'chat' | 'widget' | 'api' {
  if (url.startsWith('/api/widget/')) return 'widget';
  if (url.startsWith('/api/chat')) return 'chat';
  return 'api';
}

/** Zod issues → `details` mapping each field path to its first message. */
export function zodDetails(issues: ReadonlyArray<Issue>) {
  // A Map, not `{}`: field names such as `constructor` or `__proto__` must not hit Object.prototype.
  const details = new Map<string, string>();
  const add = (path: string, message: string) => {
    if (!details.has(path)) details.set(path, message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) add([...issue.path.map(String), key].join('.'), 'Unknown field');
      continue;
    }
    add(issue.path.map(String).join('.') || '_', issue.message);
  }
  return Object.fromEntries(details);
}

type Issue = { path: PropertyKey[]; message: string; code?: string; keys?: string[] };

export function validationError(request: FastifyRequest, issues: ReadonlyArray<Issue>): AppError {
  const chat = request.routeOptions.config?.chatErrors || surface(request.url) === 'chat';
  const code: ErrorCode = chat ? 'bad_request:chat' : 'bad_request:api';
  return new AppError(code, 'Validation failed', zodDetails(issues));
}

type FastifyValidationItem = {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: { keys?: string[] };
};

function fastifyValidationIssues(err: FastifyError) {
  const items = (err as unknown as { validation: FastifyValidationItem[] }).validation;
  return items.map((item) => ({
    path: (item.instancePath ?? '').split('/').filter(Boolean),
    message: item.message ?? 'Invalid value',
    code: item.keyword,
    keys: item.params?.keys,
  }));
}

/** Maps any thrown value to the error body of docs/api.md "Errors"; unexpected errors become a logged 500. */
export function toAppError(err: unknown, request: FastifyRequest): AppError {
  if (err instanceof AppError) return onSurface(err, request.url);
  if (err instanceof ZodError) return validationError(request, err.issues);
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object' && 'validation' in fe && Array.isArray(fe.validation)) {
    return validationError(request, fastifyValidationIssues(fe));
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large:api', 'Request body is too large');
    // docs/api.md "Requests and responses": a wrong Content-Type is a 400 like malformed JSON (not Fastify's
    // 415).
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('bad_request:api', 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request:api', 'Request body is empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request:api', 'Malformed JSON body');
    case 'FST_ERR_BAD_URL':
      return new AppError('bad_request:api', 'Malformed URL');
    // A path parameter longer than any id we issue names nothing (Fastify would answer 414).
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('not_found:api', 'Resource not found');
  }
  // The database restarting or out of reach: 503 with Retry-After, not a 500 (docs/configuration.md
  // "When PostgreSQL or Redis goes away").
  if (isDatabaseUnavailable(err)) return serviceUnavailable();
  // PostgreSQL rejects U+0000 and invalid byte sequences in text: bad input, never a 500.
  const pg = pgErrorCode(err);
  if (pg === '22021' || pg === '22P05') {
    return new AppError('bad_request:api', 'Text contains characters that cannot be stored (such as U+0000)');
  }
  if (fe instanceof SyntaxError || fe?.statusCode === 400) {
    return new AppError('bad_request:api', 'Malformed request');
  }
  if (fe?.statusCode === 413) return new AppError('payload_too_large:api', 'Request body is too large');
  if (fe?.statusCode === 415) return new AppError('bad_request:api', 'Unsupported Content-Type');
  return new AppError('internal_server_error:api', 'Internal server error');
}

/**
 * The per-surface codes (docs/api.md "Errors"): a missing credential on the chat or widget surface says so.
 */
function onSurface(err: AppError, url: string): AppError {
  if (err.code !== 'unauthorized:api') return err;
  const where = surface(url);
  if (where === 'api') return err;
  return new AppError(
    where === 'chat' ? 'unauthorized:chat' : 'unauthorized:widget',
    err.message,
    err.details,
    err.headers,
  );
}

export function sendError(reply: FastifyReply, error: AppError) {
  const body: Body = { error: error.message, code: error.code };
  if (error.details) body.details = error.details;
  if (error.headers) reply.headers(error.headers);
  return reply.status(ERROR_STATUS[error.code]).type('application/json').send(body);
}

/** At most one warning per this many ms about answering 503 (an outage fails every request). */
const UNAVAILABLE_LOG_EVERY_MS = 10_000;

export function registerErrorHandler(app: FastifyInstance) {
  let unavailableLoggedAt = 0;
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request);
    if (error.code === 'internal_server_error:api') {
      request.log.error({ err, reqId: request.id }, 'unhandled error');
    } else if (error.code === 'service_unavailable:api') {
      const at = Date.now();
      if (at - unavailableLoggedAt >= UNAVAILABLE_LOG_EVERY_MS) {
        unavailableLoggedAt = at;
        request.log.warn({ err, reqId: request.id }, 'database unavailable; answering 503 until it is back');
      }
    }
    return sendError(reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new AppError('not_found:api', `Route ${request.method} ${request.url.split('?')[0]} not found`),
    ),
  );
}
