import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeChunks, knowledgeSources } from '../../src/db/schema/index.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Site } from '../support/site.ts';
import { createWorld, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
let asst: string;
const site = new Site(true);
const SHOPIFY_TOKEN = 'shpat_test_token_123';

beforeAll(async () => {
  await site.start();
  site
    .route('/sheet.csv', {
      type: 'text/csv',
      body: 'sku,name,stock\nA1,Blue mug,12\nB2,Red plate,0\nC3,Blue plate,4\n',
    })
    .route('/admin/api/2024-10/products.json', (req) =>
      req.headers['x-shopify-access-token'] === SHOPIFY_TOKEN
        ? {
            type: 'application/json',
            body: JSON.stringify({
              products: [
                {
                  title: 'Blue Mug',
                  handle: 'blue-mug',
                  status: 'active',
                  variants: [{ price: '12.00', inventory_quantity: 3 }],
                },
                {
                  title: 'Garden Hose',
                  handle: 'hose',
                  status: 'active',
                  variants: [{ price: '30.00', inventory_quantity: 0 }],
                },
              ],
            }),
          }
        : { status: 401, body: '{"errors":"Invalid API key"}' },
    )
    .route('/admin/api/2024-10/orders.json', (_req, url) => ({
      type: 'application/json',
      body: JSON.stringify({
        orders:
          url.searchParams.get('name') === '#1001'
            ? [
                {
                  name: '#1001',
                  email: 'Ada@Example.com',
                  financial_status: 'paid',
                  fulfillment_status: 'fulfilled',
                  total_price: '24.00',
                  currency: 'EUR',
                  line_items: [{ title: 'Blue Mug', quantity: 2 }],
                },
              ]
            : [],
      }),
    }))
    .route('/wp-json/wc/v3/products', (req, url) =>
      req.headers.authorization === `Basic ${Buffer.from('ck_1:cs_1').toString('base64')}`
        ? {
            type: 'application/json',
            body: JSON.stringify(
              url.searchParams.get('search') === 'kettle'
                ? [
                    {
                      name: 'Steel Kettle',
                      permalink: 'https://shop/kettle',
                      price: '40',
                      stock_status: 'instock',
                    },
                  ]
                : [],
            ),
          }
        : { status: 401, body: '{}' },
    )
    .route('/wp-json/wc/v3/orders/77', {
      type: 'application/json',
      body: JSON.stringify({
        id: 77,
        number: '77',
        status: 'processing',
        total: '40.00',
        currency: 'USD',
        billing: { email: 'bo@example.com' },
        line_items: [{ name: 'Steel Kettle', quantity: 1 }],
      }),
    });
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const lookup = (sourceId: string, body: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: `/api/assistants/${asst}/sources/${sourceId}/lookup`,
    headers: w.member.headers,
    payload: body,
  });

describe('spreadsheet sources', () => {
  it('reads the published CSV live and returns matching rows; never indexes it', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'spreadsheet',
      name: 'Stock',
      url: site.url('/sheet.csv'),
    });
    expect(src.status).toBe('ready');
    const res = await lookup(src.id, { query: 'is the blue plate in stock?' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.kind).toBe('spreadsheet');
    expect(res.json().data.rows[0]).toEqual({ sku: 'C3', name: 'Blue plate', stock: '4' });
    expect(
      await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, src.id)),
    ).toHaveLength(0);
    // a second question within the cache window does not refetch
    const before = site.requests.filter((r) => r.path === '/sheet.csv').length;
    await lookup(src.id, { query: 'red plate' });
    expect(site.requests.filter((r) => r.path === '/sheet.csv').length).toBe(before);
  });

  it('refuses http:// and reports an unreachable sheet readably', async () => {
    const bad = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/sources`,
      headers: w.owner.headers,
      payload: { type: 'spreadsheet', name: 'x', url: 'http://example.com/a.csv' },
    });
    expect(bad.statusCode).toBe(400);
    const src = await addSource(t, w.owner, asst, {
      type: 'spreadsheet',
      name: 'Gone',
      url: site.url('/missing.csv'),
    });
    const res = await lookup(src.id, { query: 'anything' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/404/);
  });
});

describe('store sources', () => {
  it('Shopify: encrypted token, product search and order lookup only with the matching email', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'store',
      platform: 'shopify',
      storeUrl: site.origin,
      accessToken: SHOPIFY_TOKEN,
    });
    const [row] = await t.ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, src.id));
    expect(row!.secretEnc).toBeTruthy();
    expect(row!.secretEnc).not.toContain(SHOPIFY_TOKEN);
    expect(JSON.stringify(row!.config)).not.toContain(SHOPIFY_TOKEN);
    const listed = await t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/sources/${src.id}`,
      headers: w.owner.headers,
    });
    expect(listed.body).not.toContain(SHOPIFY_TOKEN);

    const res = await lookup(src.id, {
      query: 'blue mug price',
      orderNumber: '#1001',
      email: 'ada@example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.products).toEqual([
      { title: 'Blue Mug', price: '12.00', available: true, url: `${site.origin}/products/blue-mug` },
    ]);
    expect(res.json().data.order).toMatchObject({
      number: '#1001',
      status: 'paid',
      fulfillment: 'fulfilled',
      total: '24.00',
    });
    const stranger = await lookup(src.id, { query: 'mug', orderNumber: '1001', email: 'eve@example.com' });
    expect(stranger.json().data.order).toBeNull();
  });

  it('WooCommerce: basic auth, search and order by number', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'store',
      platform: 'woocommerce',
      storeUrl: site.origin,
      consumerKey: 'ck_1',
      consumerSecret: 'cs_1',
    });
    const res = await lookup(src.id, { query: 'kettle', orderNumber: '77', email: 'BO@example.com' });
    expect(res.json().data.products[0]).toMatchObject({ title: 'Steel Kettle', available: true });
    expect(res.json().data.order).toMatchObject({
      number: '77',
      status: 'processing',
      items: [{ title: 'Steel Kettle', quantity: 1 }],
    });
  });

  it('requires the platform credentials and reports refused ones', async () => {
    const missing = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/sources`,
      headers: w.owner.headers,
      payload: { type: 'store', platform: 'woocommerce', storeUrl: site.origin, consumerKey: 'ck' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toHaveProperty('consumerSecret');
    const wrong = await addSource(t, w.owner, asst, {
      type: 'store',
      platform: 'shopify',
      storeUrl: site.origin,
      accessToken: 'nope',
    });
    const res = await lookup(wrong.id, { query: 'mug' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/refused our credentials/);
  });
});
