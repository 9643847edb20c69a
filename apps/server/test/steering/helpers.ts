import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

/** Creates one of an assistant's steering items through the API (docs/steering.md); returns its data. */
export async function addItem(
  t: TestApp,
  user: TestUser,
  assistantId: string,
  kind: 'guidance' | 'answers' | 'tests',
  body: Record<string, unknown>,
) {
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/${kind}`,
    headers: user.headers,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`add ${kind}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export const addRule = (
  t: TestApp,
  user: TestUser,
  assistantId: string,
  rule: { name: string; kind: string; text: string; triggers?: string[]; enabled?: boolean },
) => addItem(t, user, assistantId, 'guidance', rule);

export const addAnswer = (
  t: TestApp,
  user: TestUser,
  assistantId: string,
  answer: { question: string; answer: string; variants?: string[] },
) => addItem(t, user, assistantId, 'answers', answer);
