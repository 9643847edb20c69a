import { createServer, type Server, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/db/schema/index.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit, startWebhookWorld } from '../support/webhooks.ts';
import type { World } from '../support/world.ts';

/**
 * Outbound failures reach users as reasons they can act on (src/lib/outbound/reasons.ts): the
 * webhook delivery log, a realtime lookup's 400 and a website source's error name no address and
 * no socket error code.
 */
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;
const SOCKET_CODE = /\bE[A-Z]{4,}\b|\bERR_[A-Z_]+\b/;
const expectNoNetwork = (text: string) => {
  expect(text).not.toMatch(IPV4);
  expect(text).not.toMatch(SOCKET_CODE);
  expect(text).not.toContain('::1');
};

let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
let plain: Server;
const sockets = new Set<Socket>();
let plainUrl: string;
let assistantId: string;
beforeAll(async () => {
  // 2 s, not less: on a loaded machine a TLS handshake or a 418 could otherwise read as a timeout.
  ({ t, w, rx, stop } = await startWebhookWorld({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_DELAYS_A: '0' }));
  // Speaks plain text where TLS is expected: the handshake fails.
  plain = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 200 OK\r\n\r\nnot tls');
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const address = plain.address();
  plainUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  assistantId = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => plain.close(resolve));
  await stop();
});

describe('webhook deliveries', () => {
  it.each([
    ['connection refused', () => 'https://127.0.0.1:1/nothing', 'Could not connect'],
    ['no answer in time', () => rx.on('/hang', () => 'hang'), 'Timed out'],
    ['not TLS', () => plainUrl, 'TLS failed'],
    ['an error status', () => rx.on('/teapot', () => ({ status: 418 })), 'HTTP status 418'],
  ])('%s → the reason in the delivery log, with no address or socket code', async (_name, url, reason) => {
    const hook = await createHookA(t, w.ws, w.owner.headers, { url: url(), events: ['member.left'] });
    await emit(t, w.ws, 'member.left', {});
    const stored = async () =>
      (await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)))[0];
    await waitFor(async () => (await stored())?.status === 'failed', 20_000, 'the failed delivery');
    const delivery = await stored();
    expect(delivery?.lastError).toBe(reason);
    expectNoNetwork(delivery?.lastError ?? '');
    // The API's delivery list says only what docs/webhooks.md "Delivery, retries and replay" lists,
    // and nothing of the network either.
    const path = `/api/workspaces/${w.ws}/webhooks/${hook.id}/deliveries`;
    const res = await t.request({ method: 'GET', url: path, headers: w.owner.headers });
    expect(res.json().data[0]).toMatchObject({ status: 'failed' });
    expectNoNetwork(res.body);
  });
});

describe('knowledge sources', () => {
  it('a realtime lookup that cannot connect is a 400 with the reason', async () => {
    const src = await addSource(t, w.owner, assistantId, {
      type: 'spreadsheet',
      name: 'Stock',
      url: 'https://127.0.0.1:1/stock.csv',
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/assistants/${assistantId}/sources/${src.id}/lookup`,
      headers: w.owner.headers,
      payload: { query: 'blue mug' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Could not reach the source: Could not connect');
    expectNoNetwork(res.body);
  });

  it("a website that cannot be read fails with the reason in the source's error", async () => {
    const jobs = t.startJobs(['ingestion'], { ingestion: 50 });
    try {
      const src = await addSource(t, w.owner, assistantId, { type: 'website', url: plainUrl });
      const path = `/api/assistants/${assistantId}/sources/${src.id}`;
      const read = () => t.request({ method: 'GET', url: path, headers: w.owner.headers });
      await waitFor(async () => (await read()).json().data.status === 'failed', 15_000, 'the failed source');
      const res = await read();
      expect(res.json().data.error).toBe('Could not read the website: TLS failed');
      expectNoNetwork(res.json().data.error);
    } finally {
      await jobs.stop(1000);
    }
  });
});
