import { useEffect, useRef } from 'react';
import type { InboxEvent } from './types.ts';

/**
 * The workspace's inbox changes, live (`GET /api/inbox/stream`, docs/inbox.md "Live updates"),
 * through an EventSource: it sends the session cookie (same origin) and reconnects by itself.
 * Each `ready` (the first, and after a reconnect) is passed on too, so the page can re-read what
 * it may have missed while disconnected.
 */
export function useInboxStream(ws: string, onEvent: (e: InboxEvent) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!ws) return;
    const source = new EventSource(`/api/inbox/stream?workspaceId=${encodeURIComponent(ws)}`);
    source.onmessage = (m) => {
      try {
        handler.current(JSON.parse(m.data) as InboxEvent);
      } catch {
        // Not JSON: nothing this page understands.
      }
    };
    return () => source.close();
  }, [ws]);
}
