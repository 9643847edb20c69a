/**
 * Every error code of the API and its HTTP status (docs/api.md "Errors"). The server throws
 * AppError (apps/server/src/http/errors.ts) with a code of this table; clients read `code`.
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
