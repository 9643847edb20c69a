import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHookA,
  createHookB,
  startWebhookWorld,
  type WebhookWorld,
  waitForQuiet,
} from '../support/webhooks.ts';
import { insertApiKey } from '../support/world.ts';

/**
 * docs/contacts-and-tickets.md: the contact and ticket events reach webhook receivers with each
 * format's names and envelope (docs/webhooks.md "Event names").
 */
let world: WebhookWorld;
beforeAll(async () => {
  world = await startWebhookWorld();
});
afterAll(() => world.stop());

type Envelope = {
  id?: string;
  event: string;
  timestamp: string;
  workspaceId: string;
  data: Record<string, unknown>;
};

describe('contact and ticket events at a receiver', () => {
  it('Format A gets contact.created/updated, ticket.created/updated/resolved; Format B its own names, no id', async () => {
    const { t, w, rx } = world;
    const urlA = rx.on('/a', () => ({ status: 200 }));
    const urlB = rx.on('/b', () => ({ status: 200 }));
    await createHookA(t, w.ws, w.owner.headers, { url: urlA, events: ['*'] });
    await createHookB(t, w.owner.headers, { url: urlB, events: ['*'], workspaceId: w.ws });
    const key = await insertApiKey(t, w.ws, ['contacts:write', 'tickets:write']);
    const call = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
      const res = await t.request({ method, url, headers: key, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data;
    };
    const contact = await call('POST', '/api/v1/contacts', { name: 'Ada', email: 'ada@example.com' });
    const changed = await call('PATCH', `/api/v1/contacts/${contact.id}`, { name: 'Ada L.' });
    const ticket = await call('POST', '/api/v1/tickets', { subject: 'Help', contactId: contact.id });
    const resolved = await call('PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'resolved' });
    await waitForQuiet(t, w.ws);

    const a = rx
      .hits('/a')
      .map((h) => JSON.parse(h.body) as Envelope)
      .sort((x, y) => (x.id! < y.id! ? -1 : 1));
    expect(a.map((e) => e.event)).toEqual([
      'contact.created',
      'contact.updated',
      'ticket.created',
      'ticket.updated',
      'ticket.resolved',
    ]);
    for (const e of a) {
      expect(Object.keys(e).sort()).toEqual(['data', 'event', 'id', 'timestamp', 'workspaceId']);
      expect(e.id).toMatch(/^evt_/);
      expect(e.workspaceId).toBe(w.ws);
      expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(a[0]?.data).toEqual(contact);
    expect(a[1]?.data).toEqual(changed);
    expect(a[2]?.data).toEqual(ticket);
    expect(a[3]?.data).toEqual({ ...resolved, previous: { status: 'open' } });
    expect(a[4]?.data).toEqual(resolved);

    const b = rx.hits('/b').map((h) => JSON.parse(h.body) as Envelope);
    expect(b.map((e) => e.event).sort()).toEqual(['contact.created', 'ticket.created', 'ticket.updated']);
    for (const e of b) expect(Object.keys(e).sort()).toEqual(['data', 'event', 'timestamp', 'workspaceId']);
    expect(b.find((e) => e.event === 'ticket.created')?.data).toMatchObject({
      id: ticket.id,
      subject: 'Help',
      status: 'open',
      priority: 'medium',
      createdAt: ticket.createdAt,
    });
  });
});
