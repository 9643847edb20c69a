import type { ErrorCode } from '@parley/contract/errors';
import { constantTimeEqual, hmacSha256 } from '../lib/crypto.ts';
import { AppError } from './errors.ts';

/** Keyset position: the sort timestamp (ms) and id of the last row of a page. */
export type CursorKey = { t: number; id: string };

/**
 * Every cursor-paged list, with the 400 code its surface answers for a cursor it refuses (docs/api.md
 * "Errors": the chat paths say `bad_request:chat`). A new cursor list is added here first.
 */
export const CURSOR_LISTS = {
  'inbox.conversations': 'bad_request:api',
  'inbox.conversations.sla': 'bad_request:api',
  'inbox.messages': 'bad_request:api',
  'v1.messages': 'bad_request:api',
  'chat.conversations': 'bad_request:chat',
  'chat.messages': 'bad_request:chat',
  'webhooks.deliveries': 'bad_request:api',
  notifications: 'bad_request:api',
} as const satisfies Record<string, ErrorCode>;
export type CursorList = keyof typeof CURSOR_LISTS;

/**
 * What a cursor is bound to (docs/api.md "Pagination"): a cursor made for one list, parent or
 * workspace is refused by every other, even though its position alone could not cross a tenant.
 */
export type CursorScope = {
  list: CursorList;
  /** The workspace whose rows the list pages; null only for a list that spans them (a user's notifications). */
  workspaceId: string | null;
  /**
   * What the list is scoped to inside the workspace: the conversation of a messages list, the webhook
   * of a delivery log, the user of their notifications; null for a workspace-wide list (the inbox).
   */
  parentId: string | null;
};

/** One list's cursor for one request: the position to read after, and the page built from the rows. */
export type OpenCursor = {
  /** Undefined on the first page. */
  after: CursorKey | undefined;
  /** A cursor page from `limit + 1` rows in keyset order; `keyOf` gives each row's position. */
  page<T>(
    rows: T[],
    limit: number,
    keyOf: (row: T) => CursorKey,
  ): { data: T[]; nextCursor: string | null; hasMore: boolean };
};

/**
 * Signed keyset cursors, so a tampered or misplaced one is a clean 400, never a query on a forged
 * position. One per app (AppContext.cursors), keyed from ENCRYPTION_KEY, which every process of an
 * installation shares (docs/configuration.md), so a cursor of one process is good on another.
 */
export type Cursors = {
  /** Reads `cursor` (the request's `cursor` parameter) for `scope`; its page's next cursor has the same scope. */
  open(scope: CursorScope, cursor: string | undefined): OpenCursor;
  encode(scope: CursorScope, key: CursorKey): string;
  decode(scope: CursorScope, cursor: string | undefined): CursorKey | undefined;
};

/**
 * A cursor is `base64url(JSON [t, id]).base64url(mac)`: the scope is not written into it (it stays short
 * and says nothing of the list) but signed with it, and the list being read supplies it again.
 */
export function createCursors(key: Buffer): Cursors {
  const secret = hmacSha256(key, 'parley-cursor-v2');
  const sign = (scope: CursorScope, payload: string) =>
    hmacSha256(secret, JSON.stringify([scope.list, scope.workspaceId, scope.parentId, payload]))
      .subarray(0, 16)
      .toString('base64url');
  const encode = (scope: CursorScope, k: CursorKey) => {
    const payload = Buffer.from(JSON.stringify([k.t, k.id])).toString('base64url');
    return `${payload}.${sign(scope, payload)}`;
  };
  const decode = (scope: CursorScope, cursor: string | undefined): CursorKey | undefined => {
    if (cursor === undefined) return undefined;
    const invalid = () =>
      new AppError(CURSOR_LISTS[scope.list], 'Invalid cursor', {
        cursor: 'Invalid or tampered cursor, or one of another list',
      });
    const [payload, sig, extra] = cursor.split('.');
    if (!payload || !sig || extra !== undefined) throw invalid();
    if (!constantTimeEqual(sig, sign(scope, payload))) throw invalid();
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
  const open = (scope: CursorScope, cursor: string | undefined): OpenCursor => ({
    after: decode(scope, cursor),
    page: (rows, limitN, keyOf) => {
      const hasMore = rows.length > limitN;
      const data = hasMore ? rows.slice(0, limitN) : rows;
      const last = data[data.length - 1];
      return { data, nextCursor: hasMore && last ? encode(scope, keyOf(last)) : null, hasMore };
    },
  });
  return { open, encode, decode };
}
