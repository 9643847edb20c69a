import { expect } from 'vitest';
import { conversationOfSession, inbox } from '../inbox/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/**
 * The setup of the suggestions' test files (docs/measuring.md "Suggestions"): a world, a widget
 * assistant that knows nothing (the offline responder declines every question), and the steps of
 * a conversation that a person answers in the inbox.
 */
export type SuggestionsApp = { t: TestApp; w: World; asst: string };

export async function startSuggestions(): Promise<SuggestionsApp> {
  const t = await createTestApp({ ...NO_RATE_LIMIT, API_RATE_LIMIT_PER_MINUTE: '100000' });
  const w = await createWorld(t);
  const asst = await widgetAssistant(t, w.owner, w.ws);
  return { t, w, asst };
}

/** A visitor's widget conversation: each of `said` sent in turn; returns its session and id. */
export async function visitorSays(t: TestApp, asst: string, said: string[]) {
  const s = await initWidget(t, asst);
  for (const content of said) {
    const r = await widgetChat(t, asst, s, content);
    expect(r.status, r.res.body).toBe(200);
  }
  return { s, id: await conversationOfSession(t, s) };
}

/** The lead form of the visitor's session: the conversation's contact. */
export async function leaveLead(
  t: TestApp,
  asst: string,
  s: { sessionId: string; token: string },
  lead: object,
) {
  const res = await fromSite(t, {
    method: 'POST',
    url: `/api/widget/${asst}/sessions/${s.sessionId}/lead`,
    token: s.token,
    payload: lead,
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** A person's reply in the inbox (it takes the conversation over when the AI holds it). */
export async function personReplies(t: TestApp, user: TestUser, id: string, content: string) {
  const res = await inbox(t, user, 'POST', `/${id}/messages`, { content });
  expect(res.statusCode, res.body).toBe(201);
}

export async function closeInInbox(t: TestApp, user: TestUser, id: string) {
  const res = await inbox(t, user, 'POST', `/${id}/close`);
  expect(res.statusCode, res.body).toBe(200);
}

/** GET the assistant's suggestions as `user`; `query` e.g. `status=open&limit=5`. */
export function listSuggestions(t: TestApp, user: TestUser, asst: string, query = '') {
  return t.request({
    method: 'GET',
    url: `/api/assistants/${asst}/suggestions${query ? `?${query}` : ''}`,
    headers: user.headers,
  });
}

/** The open suggestions of one conversation, oldest first. */
export async function suggestionsOf(t: TestApp, user: TestUser, asst: string, conversationId: string) {
  const res = await listSuggestions(t, user, asst, 'limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ conversationId: string; question: string; answer: string; id: string }>)
    .filter((s) => s.conversationId === conversationId)
    .reverse();
}

export function settle(
  t: TestApp,
  user: TestUser,
  asst: string,
  id: string,
  action: 'accept' | 'dismiss',
  payload?: unknown,
) {
  return t.request({
    method: 'POST',
    url: `/api/assistants/${asst}/suggestions/${id}/${action}`,
    headers: user.headers,
    ...(payload !== undefined && { payload: payload as object }),
  });
}
