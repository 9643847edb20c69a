import { describe, expect, it } from 'vitest';
import { signupUser } from '../support/factories.ts';
import { createTestApp } from '../support/harness.ts';
import { insertApiKey, insertWorkspace } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, sessionUrl, widgetAssistant } from '../widget/helpers.ts';

/**
 * The tenant resolver (src/http/tenant.ts) from a fresh app, with everything done inside the test:
 * a change that breaks every request (a hook not registered, every body refused) fails this test
 * instead of failing a `beforeAll`, which skips a file's tests, and a skipped test is no failure to
 * a mutation run (docs/testing.md "Mutation testing").
 */
describe('the tenant resolver on a fresh app', () => {
  it('sign-up, a workspace path, a session path, a key, the widget, a NUL and a clean body', async () => {
    const t = await createTestApp(NO_RATE_LIMIT);
    try {
      const owner = await signupUser(t);
      const ws = await insertWorkspace(t, owner);
      const created = await t.request({
        method: 'POST',
        url: '/api/assistants',
        headers: owner.headers,
        payload: { workspaceId: ws, name: 'Helper' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const assistantId = created.json().data.id as string;
      const one = await t.request({
        method: 'GET',
        url: `/api/assistants/${assistantId}`,
        headers: owner.headers,
      });
      expect(one.json().data).toMatchObject({ id: assistantId, workspaceId: ws });
      const members = await t.request({
        method: 'GET',
        url: `/api/workspaces/${ws}/members`,
        headers: owner.headers,
      });
      expect(members.statusCode).toBe(200);
      const key = await insertApiKey(t, ws, ['contacts:write']);
      const contact = await t.request({
        method: 'POST',
        url: '/api/v1/contacts',
        headers: key,
        payload: { name: 'Ada' },
      });
      expect(contact.statusCode, contact.body).toBe(201);
      const nul = await t.request({
        method: 'POST',
        url: '/api/v1/contacts',
        headers: key,
        payload: { name: 'A\u0000da' },
      });
      expect(nul.statusCode).toBe(400);
      expect(Object.keys(nul.json().details)).toEqual(['name']);
      const widgetId = await widgetAssistant(t, owner, ws);
      const s = await initWidget(t, widgetId);
      const history = await fromSite(t, {
        method: 'GET',
        url: sessionUrl(widgetId, s, 'messages'),
        token: s.token,
      });
      expect(history.statusCode, history.body).toBe(200);
    } finally {
      await t.close();
    }
  });
});
