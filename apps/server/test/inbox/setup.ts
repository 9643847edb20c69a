import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { conversationOfSession, listen } from './helpers.ts';

/**
 * The setup the inbox's test files share (inbox.test.ts, inbox-listing.test.ts,
 * inbox-hostile.test.ts): the app on a real port (the streams), a world, a widget assistant.
 */
export type InboxApp = { t: TestApp; w: World; asst: string; base: string };

export async function startInbox(env: Record<string, string> = {}): Promise<InboxApp> {
  const t = await createTestApp({ ...NO_RATE_LIMIT, CHAT_KEEPALIVE_MS: '100', ...env });
  const w = await createWorld(t);
  const asst = await widgetAssistant(t, w.owner, w.ws);
  const base = await listen(t);
  return { t, w, asst, base };
}

/** A visitor's widget conversation with one message; returns its session and conversation id. */
export async function visitorOf(t: TestApp, asst: string, content = 'Where is my order?') {
  const s = await initWidget(t, asst);
  const r = await widgetChat(t, asst, s, content);
  expect(r.status, r.res.body).toBe(200);
  return { s, id: await conversationOfSession(t, s) };
}
