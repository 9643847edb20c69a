import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * Every feature that calls out on a customer's behalf refuses an address the policy refuses
 * (src/lib/outbound/address-policy.ts), however it is written: the IPv4-translated form of
 * loopback passed the old list of refused IPv6 ranges.
 */
const REFUSED_HOSTS = [
  '[::ffff:0:127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[::ffff:0:a9fe:a9fe]', // 169.254.169.254 (cloud metadata), translated
  '[::10.0.0.1]', // IPv4-compatible
  '[64:ff9b::c0a8:101]', // NAT64 of 192.168.1.1
  '[2002:a00:1::]', // 6to4 of 10.0.0.1
  '[2001:0:a00:1::f7f7:f7f7]', // Teredo, server 10.0.0.1
  '[3fff::1]', // documentation
  '[fd00::1]', // unique local
];

let t: TestApp;
let w: World;
let assistantId: string;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  w = await createWorld(t);
  assistantId = await createAssistant(t, w.owner, w.ws);
});
afterAll(() => t.close());

type Answer = { statusCode: number; json(): { code?: string; details?: Record<string, string> } };
type Feature = { name: string; field: string; send: (url: string) => Promise<Answer> };

const features: Feature[] = [
  {
    name: 'webhook, Form A',
    field: 'url',
    send: (url) =>
      t.request({
        method: 'POST',
        url: `/api/workspaces/${w.ws}/webhooks`,
        headers: w.owner.headers,
        payload: { url, events: ['member.joined'] },
      }),
  },
  {
    name: 'webhook, Form B',
    field: 'url',
    send: (url) =>
      t.request({
        method: 'POST',
        url: '/api/webhooks',
        headers: w.owner.headers,
        payload: { url, events: ['message.created'], workspaceId: w.ws },
      }),
  },
  ...(['page', 'sitemap', 'crawl'] as const).map((mode) => ({
    name: `website source (${mode})`,
    field: 'url',
    send: (url: string) =>
      t.request({
        method: 'POST',
        url: `/api/assistants/${assistantId}/sources`,
        headers: w.owner.headers,
        payload: { type: 'website', url, mode },
      }),
  })),
  {
    name: 'spreadsheet source',
    field: 'url',
    send: (url) =>
      t.request({
        method: 'POST',
        url: `/api/assistants/${assistantId}/sources`,
        headers: w.owner.headers,
        payload: { type: 'spreadsheet', name: 'Stock', url },
      }),
  },
  {
    name: 'store source',
    field: 'storeUrl',
    send: (url) =>
      t.request({
        method: 'POST',
        url: `/api/assistants/${assistantId}/sources`,
        headers: w.owner.headers,
        payload: { type: 'store', platform: 'shopify', storeUrl: url, accessToken: 'shpat_x' },
      }),
  },
];

describe('every outbound feature refuses what the address policy refuses', () => {
  it.each(features.flatMap((f) => REFUSED_HOSTS.map((host) => [f.name, host, f] as const)))(
    '%s: https://%s/ is a 400 naming the field',
    async (_name, host, feature) => {
      const res = await feature.send(`https://${host}/path`);
      expect(res.statusCode, JSON.stringify(res.json())).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(res.json().details?.[feature.field]).toMatch(/private or reserved/);
    },
  );
});
