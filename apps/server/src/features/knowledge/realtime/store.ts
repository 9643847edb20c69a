import type { AppContext } from '../../../context.ts';
import { tokenize } from '../../../providers/embeddings/offline.ts';
import { fetchForKnowledge } from '../outbound.ts';
import { RealtimeError } from './spreadsheet.ts';

/**
 * Live store lookups (docs/knowledge.md "Realtime sources"): Shopify Admin REST and WooCommerce REST
 * shapes. Orders are disclosed only when the customer's email matches the order's.
 */
export type StoreConfig = { platform: 'shopify' | 'woocommerce'; storeUrl: string };
export type StoreSecret = { accessToken?: string; consumerKey?: string; consumerSecret?: string };
export type Product = { title: string; price: string | null; available: boolean; url: string | null };
export type Order = {
  number: string;
  status: string;
  fulfillment: string | null;
  total: string;
  currency: string;
  items: Array<{ title: string; quantity: number }>;
};

const SHOPIFY_API = '2024-10';
const base = (c: StoreConfig) => c.storeUrl.replace(/\/+$/, '');

function headers(c: StoreConfig, s: StoreSecret): Record<string, string> {
  if (c.platform === 'shopify')
    return { 'x-shopify-access-token': s.accessToken ?? '', accept: 'application/json' };
  const basic = Buffer.from(`${s.consumerKey ?? ''}:${s.consumerSecret ?? ''}`).toString('base64');
  return { authorization: `Basic ${basic}`, accept: 'application/json' };
}

async function getJson(ctx: AppContext, url: string, h: Record<string, string>): Promise<unknown> {
  const res = await fetchForKnowledge(ctx, url, { headers: h, maxBytes: 2 * 1024 * 1024 });
  if (res.status === 401 || res.status === 403) throw new RealtimeError('The store refused our credentials');
  if (res.status === 404) return null;
  if (res.status !== 200) throw new RealtimeError(`The store answered ${res.status}`);
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new RealtimeError('The store answered with something that is not JSON');
  }
}

type ShopifyProduct = {
  title: string;
  handle: string;
  status?: string;
  variants?: Array<{ price?: string; inventory_quantity?: number }>;
};
type WooProduct = { name: string; permalink?: string; price?: string; stock_status?: string };

export async function searchProducts(
  ctx: AppContext,
  c: StoreConfig,
  s: StoreSecret,
  query: string,
  limit = 5,
) {
  if (c.platform === 'woocommerce') {
    const url = `${base(c)}/wp-json/wc/v3/products?search=${encodeURIComponent(query)}&per_page=${limit}`;
    const list = ((await getJson(ctx, url, headers(c, s))) ?? []) as WooProduct[];
    return list.slice(0, limit).map(
      (p): Product => ({
        title: p.name,
        price: p.price ?? null,
        available: p.stock_status !== 'outofstock',
        url: p.permalink ?? null,
      }),
    );
  }
  // Shopify's REST products list has no text search: fetch a page and rank by shared words.
  const url = `${base(c)}/admin/api/${SHOPIFY_API}/products.json?limit=250&fields=title,handle,status,variants`;
  const body = (await getJson(ctx, url, headers(c, s))) as { products?: ShopifyProduct[] } | null;
  const words = new Set(tokenize(query));
  return (body?.products ?? [])
    .map((p) => ({ p, score: tokenize(p.title).filter((w) => words.has(w)).length }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(
      ({ p }): Product => ({
        title: p.title,
        price: p.variants?.[0]?.price ?? null,
        available: p.status !== 'archived' && (p.variants ?? []).some((v) => (v.inventory_quantity ?? 1) > 0),
        url: `${base(c)}/products/${p.handle}`,
      }),
    );
}

type ShopifyOrder = {
  name: string;
  email?: string;
  financial_status?: string;
  fulfillment_status?: string | null;
  total_price: string;
  currency: string;
  line_items?: Array<{ title: string; quantity: number }>;
};
type WooOrder = {
  number?: string;
  id: number;
  status: string;
  total: string;
  currency: string;
  billing?: { email?: string };
  line_items?: Array<{ name: string; quantity: number }>;
};

/** An order by number, only when `email` matches it (case-insensitive); otherwise null. */
export async function lookupOrder(
  ctx: AppContext,
  c: StoreConfig,
  s: StoreSecret,
  orderNumber: string,
  email: string,
): Promise<Order | null> {
  const number = orderNumber.replace(/^#/, '').trim();
  if (!/^[A-Za-z0-9-]{1,40}$/.test(number)) return null;
  const same = (a?: string) => !!a && a.trim().toLowerCase() === email.trim().toLowerCase();
  if (c.platform === 'woocommerce') {
    const o = (await getJson(
      ctx,
      `${base(c)}/wp-json/wc/v3/orders/${encodeURIComponent(number)}`,
      headers(c, s),
    )) as WooOrder | null;
    if (!o || !same(o.billing?.email)) return null;
    return {
      number: String(o.number ?? o.id),
      status: o.status,
      fulfillment: null,
      total: o.total,
      currency: o.currency,
      items: (o.line_items ?? []).map((i) => ({ title: i.name, quantity: i.quantity })),
    };
  }
  const url = `${base(c)}/admin/api/${SHOPIFY_API}/orders.json?status=any&name=${encodeURIComponent(`#${number}`)}`;
  const body = (await getJson(ctx, url, headers(c, s))) as { orders?: ShopifyOrder[] } | null;
  const o = body?.orders?.[0];
  if (!o || !same(o.email)) return null;
  return {
    number: o.name,
    status: o.financial_status ?? 'unknown',
    fulfillment: o.fulfillment_status ?? null,
    total: o.total_price,
    currency: o.currency,
    items: (o.line_items ?? []).map((i) => ({ title: i.title, quantity: i.quantity })),
  };
}
