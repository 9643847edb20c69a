import type { Member } from '@parley/contract/api-types';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { OffsetPage } from '../../api.ts';
import type { InboxEvent } from './types.ts';

/**
 * The workspace's inbox changes, live (`GET /api/inbox/stream`, docs/inbox.md "Live updates"),
 * through an EventSource: it sends the session cookie (same origin) and reconnects by itself.
 * Each `ready` (the first, and after a reconnect) is passed on too, so the page can re-read what
 * it may have missed while disconnected.
 *
 * A member's availability (`member.updated`) is kept here for every page that listens: it goes
 * into the cached member lists (directory.ts `useMembers`, the Members page), so the assignee menu
 * and the header's switch show it without a read. After a reconnect the lists are read again,
 * since changes made meanwhile were not heard.
 */
export function useInboxStream(ws: string, onEvent: (e: InboxEvent) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const qc = useQueryClient();
  useEffect(() => {
    if (!ws) return;
    let readies = 0;
    const source = new EventSource(`/api/inbox/stream?workspaceId=${encodeURIComponent(ws)}`);
    source.onmessage = (m) => {
      let event: InboxEvent;
      try {
        event = JSON.parse(m.data) as InboxEvent;
      } catch {
        return; // Not JSON: nothing this page understands.
      }
      if (event.type === 'member.updated') setAvailability(qc, ws, event.member);
      if (event.type === 'ready' && readies++ > 0) void qc.invalidateQueries({ queryKey: ['members', ws] });
      handler.current(event);
    };
    return () => source.close();
  }, [ws, qc]);
}

/** One member's new availability, in every cached page of the workspace's members. */
function setAvailability(qc: QueryClient, ws: string, member: Pick<Member, 'userId' | 'availability'>) {
  qc.setQueriesData<OffsetPage<Member>>({ queryKey: ['members', ws] }, (old) =>
    old?.data?.some((m) => m.userId === member.userId)
      ? {
          ...old,
          data: old.data.map((m) =>
            m.userId === member.userId ? { ...m, availability: member.availability } : m,
          ),
        }
      : old,
  );
}
