import { z } from 'zod';

/** docs/api.md "Requests and responses": a single resource comes back as `{data: resource}`. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const errorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A route's own error responses beside the derived ones (http/route-docs.ts): a 409 conflict.
 */
export const conflictResponse = { 409: errorBody };

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Bounded strings everywhere (no unbounded input reaches the database). */
export const str = (max = 200, min = 1) => z.string().trim().min(min).max(max);
export const idParam = z.string().min(1).max(100);
