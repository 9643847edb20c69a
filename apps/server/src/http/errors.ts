import { ERROR_STATUS, type ErrorCode } from '@parley/contract/errors';

/**
 * The one error model (docs/architecture.md "Rules"; docs/api.md "Errors"). Services throw AppError
 * with a code of the contract's table (packages/contract/src/errors.ts); the handler in
 * error-handler.ts maps it to its status.
 */

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
