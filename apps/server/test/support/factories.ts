import type { TestApp } from './harness.ts';

let seq = 0;
export const uniqueEmail = (tag = 'user') => `${tag}-${process.pid}-${Date.now()}-${++seq}@example.com`;

export type TestUser = {
  id: string;
  email: string;
  password: string;
  cookie: string;
  headers: Record<string, string>;
};

/** Signs up through the API and returns the session cookie as request headers. */
export async function signupUser(
  t: TestApp,
  opts: { email?: string; name?: string } = {},
): Promise<TestUser> {
  const email = opts.email ?? uniqueEmail();
  const password = 'correct horse battery';
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password, name: opts.name ?? 'Test User' },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'parley.session-token');
  if (!cookie) throw new Error('no session cookie');
  const header = `parley.session-token=${cookie.value}`;
  return { id: res.json().data.user.id, email, password, cookie: header, headers: { cookie: header } };
}

/** A personal access token for `user`, as request headers. */
export async function personalToken(t: TestApp, user: TestUser): Promise<Record<string, string>> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: user.headers,
    payload: { name: 't' },
  });
  if (res.statusCode !== 201) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().data.token}` };
}

/** Creates an assistant through the API as `user` in `workspaceId`; returns its id. */
export async function createAssistant(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/assistants',
    headers: user.headers,
    payload: { workspaceId, name: 'Helper', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create assistant: ${res.statusCode} ${res.body}`);
  return res.json().data.id;
}

/** Adds a knowledge source to an assistant through the API (ingested later: drainIngestion). */
export async function addSource(
  t: TestApp,
  user: TestUser,
  assistantId: string,
  body: Record<string, unknown>,
): Promise<{ id: string; status: string }> {
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/sources`,
    headers: user.headers,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`add source: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
