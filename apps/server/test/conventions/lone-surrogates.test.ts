import { SCOPES } from '@parley/contract/scopes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { LONE, MARKER, storedAnywhere } from '../support/hostile-text.ts';
import { resolver, type Schema, sample, stringSlots, withValueAt } from '../support/string-fields.ts';
import { insertApiKey, insertWorkspace } from '../support/world.ts';
import { initWidget, widgetAssistant } from '../widget/helpers.ts';

/**
 * The generic hostile-text sweep (docs/decisions/0001-http-conventions.md "Hostile input never reaches the database as a 500"):
 * for every operation of /api/openapi.json with a JSON body, every string the body's schema
 * admits (values at any depth, keys of records, array items, every branch of a union) gets a lone
 * surrogate in turn, sent with the credential the operation takes. Each must answer 400 naming
 * exactly that field (`bad_request:chat` on the chat surfaces), and nothing of them is stored
 * anywhere. One database, injected requests: the refusal comes before any lookup, so the sweep
 * needs no resources and runs in seconds.
 */
type Operation = {
  security?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

let t: TestApp;
let doc: Doc;
let credentials: {
  session: Record<string, string>;
  key: Record<string, string>;
  widget: Record<string, string>;
};
let ids: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_MINUTE: '100000' });
  const owner = await signupUser(t);
  const ws = await insertWorkspace(t, owner);
  const assistantId = await widgetAssistant(t, owner, ws);
  const widget = await initWidget(t, assistantId);
  credentials = {
    session: owner.headers,
    key: await insertApiKey(t, ws, [...SCOPES]),
    widget: { origin: 'https://shop.example.com', authorization: `Widget ${widget.token}` },
  };
  ids = { workspaceId: ws, assistantId, sessionId: widget.sessionId };
  doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(() => t.close());

/** The credential the operation documents first; none for the open ones (login, widget init). */
function credentialFor(path: string, op: Operation): Record<string, string> {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (path.startsWith('/api/widget/')) return credentials.widget;
  if (schemes.includes('bearer') && path.startsWith('/api/v1/')) return credentials.key;
  if (schemes.includes('session') || schemes.includes('bearer')) return credentials.session;
  return {};
}

/** The chat surfaces answer `bad_request:chat` (docs/api.md "Errors"). */
const codeFor = (method: string, path: string) =>
  path.startsWith('/api/chat') || (method === 'post' && path === '/api/widget/{assistantId}/chat')
    ? 'bad_request:chat'
    : 'bad_request:api';

const urlOf = (path: string) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => ids[name] ?? 'x_missing');

describe('a lone surrogate in any string of any route', () => {
  it('is a 400 naming the field, and nothing is stored', async () => {
    const resolve = resolver(doc);
    const wrong: string[] = [];
    const swept = new Set<string>();
    let cases = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        const base = sample(schema, resolve) ?? {};
        for (const slot of stringSlots(schema, resolve)) {
          const field = slot.key ? [...slot.path, LONE] : slot.path;
          const payload = slot.key
            ? withValueAt(base, field, 'value')
            : withValueAt(base, slot.path, `${LONE} in ${slot.path.join('.')}`);
          const request: InjectOptions = {
            method: method.toUpperCase() as InjectOptions['method'],
            url: urlOf(path),
            headers: { ...credentialFor(path, op), 'content-type': 'application/json' },
            payload: JSON.stringify(payload),
          };
          const res = await t.request(request);
          cases++;
          swept.add(`${method.toUpperCase()} ${path}`);
          const name = field.map(String).join('.');
          const body = res.statusCode === 400 ? res.json() : undefined;
          const ok =
            body?.code === codeFor(method, path) &&
            Object.keys(body.details ?? {}).join() === name &&
            /lone UTF-16 surrogate/.test(String(body.details[name]));
          if (!ok)
            wrong.push(
              `${method.toUpperCase()} ${path} ${name}: ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
    // The sweep reached the routes first found failing, and many more.
    for (const op of [
      'POST /api/v1/messages',
      'POST /api/v1/contacts',
      'PATCH /api/v1/contacts/{contactId}',
      'POST /api/inbox/conversations/{conversationId}/messages',
      'POST /api/widget/{assistantId}/chat',
      'POST /api/chat',
      'POST /api/workspaces',
      'POST /api/workspaces/{workspaceId}/tickets',
    ]) {
      expect([...swept]).toContain(op);
    }
    expect(swept.size).toBeGreaterThan(50);
    expect(cases).toBeGreaterThan(200);
    expect(await storedAnywhere(t, MARKER)).toEqual([]);
  });
});
