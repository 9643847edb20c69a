import { z } from 'zod';

/** docs/api.md "Requests and responses": a single resource comes back as `{data: resource}`. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const errorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** Bounded strings everywhere (no unbounded input reaches the database). */
export const str = (max = 200, min = 1) => z.string().trim().min(min).max(max);
export const idParam = z.string().min(1).max(100);

/** An answer that sends the caller elsewhere (a checkout page, an identity provider): `{data: {url}}`. */
export const urlData = dataOf(z.object({ url: z.string() }));

/** What a create answers when only the new id matters. */
export const idOf = <K extends string>(key: K) => z.object({ [key]: z.string() } as Record<K, z.ZodString>);
