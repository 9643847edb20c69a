import type { LightMyRequestResponse } from 'fastify';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

export type ChatEvent =
  | { type: 'text-delta'; textDelta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { type: 'tool-result'; toolCallId: string; result: Record<string, unknown> }
  | { type: 'finish'; messageId: string | null; usage: { promptTokens: number; completionTokens: number } }
  | { type: 'error'; error: string; code: string };

/** The `data:` lines of a server-sent event body, parsed; comments (keep-alives) are skipped. */
export function parseEvents(body: string): ChatEvent[] {
  return body
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as ChatEvent);
}

export const textOf = (events: ChatEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.textDelta : '')).join('');

export type ChatResult = {
  res: LightMyRequestResponse;
  status: number;
  events: ChatEvent[];
  text: string;
  conversationId: string | undefined;
};

export async function chat(t: TestApp, user: TestUser, body: Record<string, unknown>): Promise<ChatResult> {
  const res = await t.request({ method: 'POST', url: '/api/chat', headers: user.headers, payload: body });
  const events = res.statusCode === 200 ? parseEvents(res.body) : [];
  return {
    res,
    status: res.statusCode,
    events,
    text: textOf(events),
    conversationId: res.headers['x-conversation-id'] as string | undefined,
  };
}

export async function messagesOf(t: TestApp, user: TestUser, conversationId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/chat/conversations/${conversationId}/messages?limit=100`,
    headers: user.headers,
  });
  if (res.statusCode !== 200) throw new Error(`messages: ${res.statusCode} ${res.body}`);
  return res.json().data as Array<{
    id: string;
    role: string;
    content: string;
    status: string;
    citations: Array<{ index: number; chunkId: string; sourceId: string }>;
    toolCalls: Array<{ toolName: string; result?: unknown }>;
    usage: { promptTokens: number; completionTokens: number } | null;
  }>;
}
