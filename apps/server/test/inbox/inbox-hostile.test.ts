import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import type { World } from '../support/world.ts';
import { inbox } from './helpers.ts';
import { startInbox, visitorOf } from './setup.ts';

/**
 * Hostile input to the inbox (docs/inbox.md): refused with 400, 413 or 404, and nothing stored,
 * checked over every table (support/stored-rows.ts), not only the status.
 */
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  ({ t, w, asst } = await startInbox());
});
afterAll(() => t.close());

const visitor = (content?: string) => visitorOf(t, asst, content);

describe('hostile input', () => {
  it('replies: wrong types, empty, over-long, unknown fields, NUL → 400; huge body → 413; unicode kept', async () => {
    const { id } = await visitor();
    for (const body of [
      {},
      { content: 5 },
      { content: '   ' },
      { content: 'x'.repeat(8001) },
      { content: 'hi', role: 'assistant' },
      { content: 'a\u0000b' },
    ]) {
      const what = JSON.stringify(body).slice(0, 60);
      const res = await expectNothingStored(
        t,
        () => inbox(t, w.member, 'POST', `/${id}/messages`, body),
        what,
      );
      expect(res.statusCode, what).toBe(400);
    }
    const huge = await expectNothingStored(t, () =>
      inbox(t, w.member, 'POST', `/${id}/messages`, { content: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(huge.statusCode).toBe(413);
    const text = 'Ça marche 👍 — 你好 <script>alert(1)</script>';
    const ok = await inbox(t, w.member, 'POST', `/${id}/messages`, { content: text });
    expect(ok.json().data.content).toBe(text);
  });

  it('ids: unknown, over-long, another workspace’s, or a workspaceId that is not the conversation’s → 404', async () => {
    const { id } = await visitor();
    for (const path of [
      '/conv_unknown',
      `/${'x'.repeat(101)}`,
      `/${id}?workspaceId=${w.otherWs}`,
      `/${id}?workspaceId=${w.freeWs}`,
    ]) {
      const res = await inbox(t, w.owner, 'GET', path);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await inbox(t, w.outsider, 'GET', `/${id}`)).statusCode).toBe(404);
    const handoff = await expectNothingStored(t, () => inbox(t, w.outsider, 'POST', `/${id}/handoff`));
    expect(handoff.statusCode).toBe(404);
  });
});
