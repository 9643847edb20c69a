import { errorFrom, type ToolStep } from '../../api.ts';

/**
 * POST /api/chat read as server-sent events through fetch (docs/chat.md): one JSON object per
 * `data:` line; `: keep-alive` comments are skipped. Refusals arrive as JSON before the stream.
 */
export type StreamEvent =
  | { type: 'text-delta'; textDelta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; args: unknown }
  | { type: 'tool-result'; toolCallId: string; result: unknown }
  | { type: 'finish'; messageId: string | null }
  | { type: 'error'; error: string; code: string };

export async function streamChat(
  body: { assistantId: string; conversationId?: string; content: string },
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
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut = buffer.indexOf('\n');
    while (cut >= 0) {
      const line = buffer.slice(0, cut).replace(/\r$/, '');
      buffer = buffer.slice(cut + 1);
      if (line.startsWith('data:')) onEvent(JSON.parse(line.slice(5).trim()) as StreamEvent);
      cut = buffer.indexOf('\n');
    }
  }
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
