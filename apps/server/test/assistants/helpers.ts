import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

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
