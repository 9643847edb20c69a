import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../src/db/schema/index.ts';
import { isBlockedAddress } from '../../src/lib/outbound/address-policy.ts';
import { checkOutboundUrl, guardedLookup } from '../../src/lib/outbound/guard.ts';
import { postOutbound } from '../../src/lib/outbound/http.ts';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit, startWebhookWorld } from '../support/webhooks.ts';
import type { World } from '../support/world.ts';

let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
beforeAll(async () => {
  ({ t, w, rx, stop } = await startWebhookWorld({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
    WEBHOOK_RETRY_DELAYS_A: '0,0',
  }));
});
afterAll(() => stop());

const REFUSED = [
  'https://127.0.0.1/',
  'https://127.1.2.3/',
  'https://2130706433/', // decimal 127.0.0.1
  'https://0x7f.1/', // hex
  'https://0177.0.0.1/', // octal
  'https://0x7f000001/',
  'https://017700000001/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'https://0.0.0.0/',
  'https://0/',
  'https://10.0.0.1/',
  'https://172.16.5.4/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://100.127.255.254/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://255.255.255.255/',
  'https://240.0.0.1/',
  'https://192.0.2.1/',
  'https://198.18.0.1/',
  'https://[::1]/',
  'https://[::]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:0:127.0.0.1]/', // IPv4-translated loopback
  'https://[::ffff:0:7f00:1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[fe80::1]/',
  'https://[ff02::1]/',
  'https://[64:ff9b::7f00:1]/',
  'https://[2002:7f00:1::]/',
];

describe('SSRF guard', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast, reserved and odd IP forms at creation', async () => {
    for (const url of REFUSED) {
      const res = await t.request({
        method: 'POST',
        url: `/api/workspaces/${w.ws}/webhooks`,
        headers: w.owner.headers,
        payload: { url, events: ['*'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().details.url, url).toMatch(/private or reserved/);
    }
  });

  it('accepts public addresses', async () => {
    for (const url of [
      'https://93.184.215.14/',
      'https://8.8.8.8:8443/x',
      'https://[2606:4700:4700::1111]/',
    ]) {
      expect(await checkOutboundUrl(url, { allowPrivateNetworks: false }), url).toBeNull();
    }
    expect(isBlockedAddress('100.128.0.1')).toBe(false); // just outside CGNAT
    expect(isBlockedAddress('172.32.0.1')).toBe(false);
  });

  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true lifts the address check, not the https rule', async () => {
    expect(await checkOutboundUrl('https://127.0.0.1/', { allowPrivateNetworks: true })).toBeNull();
    expect(await checkOutboundUrl('http://127.0.0.1/', { allowPrivateNetworks: true })).toMatch(/https/);
  });

  it('connect-time lookup refuses names that resolve to refused addresses', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EPARLEYREFUSED');
    const all = await new Promise<unknown>((resolve) =>
      guardedLookup('localhost', { all: true }, (e, a) => resolve(e ?? a)),
    );
    expect((all as NodeJS.ErrnoException).code).toBe('EPARLEYREFUSED');
  });

  it('an IP literal is refused at connect time too (no DNS lookup happens for those)', async () => {
    const url = rx.on('/literal', () => ({ status: 200 }));
    const res = await postOutbound(url, '{}', {}, { allowPrivateNetworks: false, timeoutMs: 2000 });
    expect(res.statusCode).toBeUndefined();
    expect(res.error).toBe('Not a public address');
    expect(rx.hits('/literal')).toHaveLength(0);
  });

  it('DNS rebinding: a webhook whose name later resolves to loopback is refused when the attempt connects', async () => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    const host = resolved && isBlockedAddress(resolved.address) ? name : undefined;
    rx.on('/rebind', () => ({ status: 200 }));
    const hook = await createHookA(t, w.ws, w.owner.headers, {
      url: 'https://93.184.215.14/rebind',
      events: ['member.joined'],
    });
    // The name passed at creation; now it points at this machine (fixture: rewrite the stored URL).
    const target = `https://${host ?? 'localhost'}:${rx.port}/rebind`;
    await t.ctx.db.update(webhooks).set({ url: target }).where(eq(webhooks.id, hook.id));
    await emit(t, w.ws, 'member.joined', {});
    await waitFor(
      async () =>
        (await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)))[0]
          ?.status === 'failed',
      8000,
      'refused delivery',
    );
    const [d] = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(d).toMatchObject({ attempt: 3, statusCode: null });
    expect(d!.lastError).toBe('Not a public address');
    expect(rx.hits('/rebind')).toHaveLength(0);
  });
});
