import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type ChatEvent, parseEvents, textOf } from '../chat/helpers.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

/** The customer's website that embeds the widget in these tests. */
export const SITE = 'https://shop.example.com';

/** Most widget tests are not about the per-IP limit: lift it (widget-limits.test.ts keeps 5). */
export const NO_RATE_LIMIT = { WIDGET_RATE_LIMIT_PER_MINUTE: '100000' };

/** PATCH /api/assistants/{id}/widget as `user`; returns the response body's data. */
export async function configureWidget(
  t: TestApp,
  user: TestUser,
  assistantId: string,
  patch: Record<string, unknown>,
) {
  const res = await t.request({
    method: 'PATCH',
    url: `/api/assistants/${assistantId}/widget`,
    headers: user.headers,
    payload: patch,
  });
  if (res.statusCode !== 200) throw new Error(`configure widget: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** An assistant in `workspaceId` with its widget enabled for SITE. */
export async function widgetAssistant(
  t: TestApp,
  owner: TestUser,
  workspaceId: string,
  patch: Record<string, unknown> = {},
  assistant: Record<string, unknown> = {},
): Promise<string> {
  const id = await createAssistant(t, owner, workspaceId, assistant);
  await configureWidget(t, owner, id, { isEnabled: true, allowedDomains: ['shop.example.com'], ...patch });
  return id;
}

export type Session = { sessionId: string; token: string };

/** A request from the customer's page: its Origin, and the session token when given. */
export function fromSite(
  t: TestApp,
  opts: InjectOptions & { token?: string; origin?: string | null },
): Promise<LightMyRequestResponse> {
  const { token, origin, ...rest } = opts;
  const headers: Record<string, string> = { ...(rest.headers as Record<string, string> | undefined) };
  if (origin !== null) headers.origin = origin ?? SITE;
  if (token) headers.authorization = `Widget ${token}`;
  // The harness adds the app's own Origin unless one is set: go around it when none is wanted.
  return origin === null ? t.app.inject({ ...rest, headers }) : t.request({ ...rest, headers });
}

export async function initWidget(t: TestApp, assistantId: string, body: Record<string, unknown> = {}) {
  const res = await fromSite(t, {
    method: 'POST',
    url: `/api/widget/${assistantId}/init`,
    payload: { sessionId: null, metadata: { page: `${SITE}/pricing` }, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  return { sessionId: data.sessionId as string, token: data.sessionToken as string, data };
}

export type WidgetChat = { res: LightMyRequestResponse; status: number; events: ChatEvent[]; text: string };

export async function widgetChat(
  t: TestApp,
  assistantId: string,
  s: Session,
  content: string,
  extra: Partial<InjectOptions> = {},
): Promise<WidgetChat> {
  const res = await fromSite(t, {
    method: 'POST',
    url: `/api/widget/${assistantId}/chat`,
    token: s.token,
    payload: { content, sessionId: s.sessionId },
    ...extra,
  });
  const events = res.statusCode === 200 ? parseEvents(res.body) : [];
  return { res, status: res.statusCode, events, text: textOf(events) };
}

export const sessionUrl = (assistantId: string, s: Session, tail: string) =>
  `/api/widget/${assistantId}/sessions/${s.sessionId}/${tail}`;
