import { errorBody } from '@parley/contract/envelope';

/**
 * A route's own error responses beside the derived ones (http/route-docs.ts): a 409 conflict.
 */
export const conflictResponse = { 409: errorBody };

/** Dates as the API writes them (docs/api.md "Requests and responses"): ISO 8601, UTC. */
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);
