import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, ownerOf, personalToken, type World } from '../support/world.ts';
import { configureWidget, fromSite } from './helpers.ts';

/**
 * docs/widget.md "Embedding and configuration": `GET/PATCH /api/assistants/{id}/widget` for owners and
 * admins, with the embed snippet.
 */
let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const get = (id: string, headers = w.owner.headers) =>
  t.request({ method: 'GET', url: `/api/assistants/${id}/widget`, headers });
const patch = (id: string, payload: unknown, headers = w.owner.headers) =>
  t.request({ method: 'PATCH', url: `/api/assistants/${id}/widget`, headers, payload: payload as object });

describe('GET /api/assistants/{id}/widget', () => {
  it('shows the defaults before the first save, and the embed snippet', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await get(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        assistantId: id,
        isEnabled: false,
        primaryColor: '#4f46e5',
        position: 'bottom-right',
        welcomeMessage: null,
        allowedDomains: [],
        leadFormEnabled: false,
        leadFormFields: [],
        leadFormRequiredFields: [],
        sessionTimeoutMinutes: 30,
        strings: {},
        embedSnippet: `<script src="${ORIGIN}/widget.js" data-assistant-id="${id}" async></script>`,
        createdAt: null,
        updatedAt: null,
      },
    });
  });

  it('404 for another workspace’s assistant or an unknown one', async () => {
    const foreign = await createAssistant(t, w.outsider, w.otherWs);
    expect((await get(foreign)).statusCode).toBe(404);
    expect((await get('asst_unknown')).statusCode).toBe(404);
  });
});

describe('PATCH /api/assistants/{id}/widget', () => {
  it('saves any subset, normalises domains and colours, records assistant.updated', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const data = await configureWidget(t, w.admin, id, {
      isEnabled: true,
      primaryColor: '#ABCDEF',
      position: 'bottom-left',
      welcomeMessage: '  Hello there  ',
      allowedDomains: [
        'Shop.Example.com',
        '*.Example.org',
        'bücher.example',
        'shop.example.com',
        'localhost',
      ],
      leadFormEnabled: true,
      leadFormFields: ['name', 'email', 'company'],
      leadFormRequiredFields: ['email'],
      sessionTimeoutMinutes: 45,
    });
    expect(data).toMatchObject({
      isEnabled: true,
      primaryColor: '#abcdef',
      position: 'bottom-left',
      welcomeMessage: 'Hello there',
      allowedDomains: ['shop.example.com', '*.example.org', 'xn--bcher-kva.example', 'localhost'],
      leadFormFields: ['name', 'email', 'company'],
      leadFormRequiredFields: ['email'],
      sessionTimeoutMinutes: 45,
      createdAt: expect.any(String),
    });
    const next = await configureWidget(t, w.owner, id, { position: 'bottom-right', welcomeMessage: null });
    expect(next).toMatchObject({ position: 'bottom-right', welcomeMessage: null, primaryColor: '#abcdef' });
    expect((await get(id)).json().data).toEqual(next);
    const updated = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'assistant.updated')))
      .orderBy(asc(events.id));
    expect(updated.at(-1)?.data).toMatchObject({ id, widget: { position: 'bottom-right' } });
  });

  it('is the flag Form B calls widgetEnabled (docs/api.md, Form A and Form B)', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await configureWidget(t, w.owner, id, { isEnabled: true });
    const pat = await personalToken(t, w.owner);
    const res = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/assistants/${id}`,
      headers: pat,
    });
    expect(res.json().data.widgetEnabled).toBe(true);
  });

  it('400 with details for invalid values and unknown fields', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const cases: Array<[unknown, string]> = [
      [{ primaryColor: 'red' }, 'primaryColor'],
      [{ primaryColor: '#12345' }, 'primaryColor'],
      [{ position: 'top-left' }, 'position'],
      [{ allowedDomains: ['ftp://shop.example.com'] }, 'allowedDomains.0'],
      [{ allowedDomains: ['ok.example', 'shop example'] }, 'allowedDomains.1'],
      [{ allowedDomains: ['*example.com'] }, 'allowedDomains.0'],
      [{ allowedDomains: ['exa mple.com'] }, 'allowedDomains.0'],
      [{ allowedDomains: ['a.*.example.com'] }, 'allowedDomains.0'],
      [{ allowedDomains: 'shop.example.com' }, 'allowedDomains'],
      [{ allowedDomains: Array.from({ length: 101 }, (_, i) => `h${i}.example`) }, 'allowedDomains'],
      [{ leadFormFields: ['email', 'email'] }, 'leadFormFields'],
      [{ leadFormFields: ['bad key'] }, 'leadFormFields.0'],
      [{ leadFormFields: ['email'], leadFormRequiredFields: ['phone'] }, 'leadFormRequiredFields'],
      [{ sessionTimeoutMinutes: 0 }, 'sessionTimeoutMinutes'],
      [{ sessionTimeoutMinutes: 1441 }, 'sessionTimeoutMinutes'],
      [{ sessionTimeoutMinutes: 2.5 }, 'sessionTimeoutMinutes'],
      [{ isEnabled: 'yes' }, 'isEnabled'],
      [{ welcomeMessage: 'x'.repeat(2001) }, 'welcomeMessage'],
      [{ extra: 1 }, 'extra'],
      [{ assistantId: 'asst_x' }, 'assistantId'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(id, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(Object.keys(res.json().details), JSON.stringify(payload).slice(0, 80)).toContain(field);
    }
    expect((await get(id)).json().data.createdAt).toBeNull();
  });

  it('keeps the host of an origin or URL typed as an allowed domain; says a refusal in words', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const data = await configureWidget(t, w.owner, id, {
      allowedDomains: [
        'http://127.0.0.1:3701',
        'https://Shop.Example.com/help?x=1',
        'localhost:5173',
        '127.0.0.1',
      ],
    });
    expect(data.allowedDomains).toEqual(['127.0.0.1', 'shop.example.com', 'localhost']);
    const refused = await patch(id, { allowedDomains: ['ok.example', 'not a site'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details['allowedDomains.1']).toMatch(/^“not a site” is not a website address: /);
  });

  it('checks required fields against the saved form fields too', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await configureWidget(t, w.owner, id, { leadFormFields: ['email', 'phone'] });
    expect((await patch(id, { leadFormRequiredFields: ['phone'] })).statusCode).toBe(200);
    expect((await patch(id, { leadFormRequiredFields: ['company'] })).statusCode).toBe(400);
    expect((await patch(id, { leadFormFields: ['email'] })).statusCode).toBe(400);
  });

  it('takes effect on the public widget at once', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await configureWidget(t, w.owner, id, { isEnabled: true, allowedDomains: ['shop.example.com'] });
    expect((await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config` })).statusCode).toBe(200);
    await configureWidget(t, w.owner, id, { allowedDomains: [] });
    expect((await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config` })).statusCode).toBe(403);
    await configureWidget(t, w.owner, id, { isEnabled: false });
    expect((await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config` })).statusCode).toBe(404);
  });
});

const prepare = async (app: TestApp, world: World, ws: string) => ({
  assistantId: await createAssistant(app, ownerOf(world, ws), ws),
});

securitySuite(() => t, {
  name: 'GET /api/assistants/:id/widget',
  auth: 'session',
  minRole: 'admin',
  prepare,
  request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/widget` }),
});

securitySuite(() => t, {
  name: 'PATCH /api/assistants/:id/widget',
  auth: 'session',
  minRole: 'admin',
  prepare,
  request: (_ws, x) => ({
    method: 'PATCH',
    url: `/api/assistants/${x.assistantId}/widget`,
    payload: { primaryColor: '#000000' },
  }),
});
