import type { StreamEvent } from '@parley/contract/api-types';
import { parseEvents as parseSse } from '@parley/contract/sse-reader';
import type { LightMyRequestResponse } from 'fastify';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

/** The server's stream events, read by the one SSE reader the dashboard and widget use too. */
export type ChatEvent = StreamEvent;
export const parseEvents = (body: string) => parseSse<StreamEvent>(body);

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
