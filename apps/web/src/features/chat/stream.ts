import type { ChatInput, StreamEvent } from '@parley/contract/api-types';
import { readEvents } from '@parley/contract/sse-reader';
import { errorFrom, type ToolStep } from '../../api.ts';

/**
 * POST /api/chat read as server-sent events through fetch (docs/chat.md) with the server's own
 * reader (apps/server/src/lib/sse-reader.ts). Refusals arrive as JSON before the stream.
 */
export async function streamChat(
  body: ChatInput,
  onEvent: (e: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<string> {
  const res = await fetch('/api/chat', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body) throw await errorFrom(res);
  const conversationId = res.headers.get('x-conversation-id') ?? '';
  for await (const event of readEvents<StreamEvent>(res.body)) onEvent(event);
  return conversationId;
}

/** Tool steps of a reply as they stream: calls, then their results. */
export function applyTool(steps: ToolStep[], e: StreamEvent): ToolStep[] {
  if (e.type === 'tool-call')
    return [...steps, { toolCallId: e.toolCallId, toolName: e.toolName, args: e.args }];
  if (e.type === 'tool-result')
    return steps.map((s) => (s.toolCallId === e.toolCallId ? { ...s, result: e.result } : s));
  return steps;
}
