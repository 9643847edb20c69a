import { z } from 'zod';
import { constantTimeEqual, hmacSha256 } from '../lib/crypto.ts';
import { badRequest } from './errors.ts';

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

/** Keyset position: the sort timestamp (ms) and id of the last row of a page. */
export type CursorKey = { t: number; id: string };

/**
 * Signed keyset cursors, so a tampered one is a clean 400, never a query on a forged position.
 * One per app (AppContext.cursors), keyed from ENCRYPTION_KEY.
 */
export type Cursors = {
  encode(key: CursorKey): string;
  decode(cursor: string | undefined): CursorKey | undefined;
  /** A cursor page from `limit + 1` rows in keyset order; `keyOf` gives each row's position. */
  page<T>(
    rows: T[],
    limit: number,
    keyOf: (row: T) => CursorKey,
  ): { data: T[]; nextCursor: string | null; hasMore: boolean };
};

export function createCursors(key: Buffer): Cursors {
  const secret = hmacSha256(key, 'parley-cursor-v1');
  const sign = (payload: string) => hmacSha256(secret, payload).subarray(0, 12).toString('base64url');
  const encode = (k: CursorKey) => {
    const payload = Buffer.from(JSON.stringify([k.t, k.id])).toString('base64url');
    return `${payload}.${sign(payload)}`;
  };
  const decode = (cursor: string | undefined): CursorKey | undefined => {
    if (cursor === undefined) return undefined;
    const invalid = () => badRequest('Invalid cursor', { cursor: 'Invalid or tampered cursor' });
    const [payload, sig, extra] = cursor.split('.');
    if (!payload || !sig || extra !== undefined) throw invalid();
    if (!constantTimeEqual(sig, sign(payload))) throw invalid();
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (Array.isArray(parsed) && typeof parsed[0] === 'number' && typeof parsed[1] === 'string') {
        return { t: parsed[0], id: parsed[1] };
      }
    } catch {
      /* fall through */
    }
    throw invalid();
  };
  const page = <T>(rows: T[], limitN: number, keyOf: (row: T) => CursorKey) => {
    const hasMore = rows.length > limitN;
    const data = hasMore ? rows.slice(0, limitN) : rows;
    const last = data[data.length - 1];
    return { data, nextCursor: hasMore && last ? encode(keyOf(last)) : null, hasMore };
  };
  return { encode, decode, page };
}
