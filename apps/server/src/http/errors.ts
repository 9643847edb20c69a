/**
 * The one error model (docs/architecture.md "Rules"; docs/api.md "Errors"). Services throw AppError
 * with a code of that table; the handler in error-handler.ts maps it to its status.
 */
export const ERROR_STATUS = {
  'unauthorized:api': 401,
  'unauthorized:chat': 401,
  'unauthorized:widget': 401,
  'forbidden:api': 403,
  'bad_request:api': 400,
  'bad_request:chat': 400,
  'not_found:api': 404,
  'not_found:chat': 404,
  'not_found:widget': 404,
  'conflict:api': 409,
  credits_limit_exceeded: 403,
  'rate_limit:widget': 429,
  'rate_limit:api': 429,
  'internal_server_error:api': 500,
  plan_upgrade_required: 403,
  missing_scope: 403,
  plan_limit_reached: 403,
  billing_not_configured: 400,
  'payload_too_large:api': 413,
  // The database cannot be reached for now (restarting, failing over): retry after Retry-After
  // (docs/decisions/0013-faults.md).
  'service_unavailable:api': 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found:api', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError('forbidden:api', message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('conflict:api', message, details);
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('bad_request:api', message, details);
export const unauthorized = (message = 'Authentication required') =>
  new AppError('unauthorized:api', message);

/** Seconds a client waits before retrying a 503 (the pool reconnects by itself meanwhile). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export const serviceUnavailable = () =>
  new AppError(
    'service_unavailable:api',
    'The database cannot be reached right now; retry shortly',
    undefined,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
  );
