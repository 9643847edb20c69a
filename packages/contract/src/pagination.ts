import { z } from 'zod';

/** docs/api.md "Pagination": limit 1..100 default 25; offset >= 0 default 0. */
const limit = z.coerce.number().int().min(1).max(100).default(25);

export const offsetQuery = z.object({
  limit,
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});
export const cursorQuery = z.object({ limit, cursor: z.string().max(512).optional() });

export type OffsetQuery = z.infer<typeof offsetQuery>;
export type CursorQuery = z.infer<typeof cursorQuery>;

export const offsetPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });
export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable(), hasMore: z.boolean() });
