import { useCallback, useSyncExternalStore } from 'react';
import type { InboxConversation } from './types.ts';

/**
 * Unread counts (docs/dashboard.md "Inbox"): the messages of a conversation since the current
 * user last had it open, kept in this browser's localStorage per user (the API has no per-user
 * read marker). Opening a conversation marks its messages seen; a conversation never opened here
 * counts all its messages. Changes made in another tab of the same browser show at once.
 */

const KEY = (userId: string) => `parley:inbox-seen:${userId}`;
/** Conversations remembered per user; the least recently marked are forgotten beyond this. */
const KEEP = 2000;

type Seen = Record<string, number>;

const cache = new Map<string, Seen>();
const listeners = new Set<() => void>();

function read(userId: string): Seen {
  let seen = cache.get(userId);
  if (!seen) {
    try {
      seen = JSON.parse(localStorage.getItem(KEY(userId)) ?? '{}') as Seen;
      if (!seen || typeof seen !== 'object') seen = {};
    } catch {
      seen = {};
    }
    cache.set(userId, seen);
  }
  return seen;
}

function notify() {
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith('parley:inbox-seen:')) {
      cache.clear();
      notify();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Records that `userId` has seen the first `count` messages of `conversationId`. */
export function markSeen(userId: string, conversationId: string, count: number) {
  const seen = read(userId);
  if ((seen[conversationId] ?? -1) >= count) return;
  // Re-inserted last, so the oldest marks are the first keys when trimming.
  const { [conversationId]: _old, ...rest } = seen;
  const next: Seen = { ...rest, [conversationId]: count };
  const ids = Object.keys(next);
  for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) delete next[id];
  cache.set(userId, next);
  try {
    localStorage.setItem(KEY(userId), JSON.stringify(next));
  } catch {
    // Storage full or blocked: the counts still hold for this page's life.
  }
  notify();
}

/** The unread count of each conversation for `userId`, re-rendered when a mark changes. */
export function useUnread(userId: string | undefined) {
  const seen = useSyncExternalStore(subscribe, () => (userId ? read(userId) : EMPTY));
  return useCallback(
    (c: Pick<InboxConversation, 'id' | 'messageCount'>) => Math.max(0, c.messageCount - (seen[c.id] ?? 0)),
    [seen],
  );
}

const EMPTY: Seen = {};
