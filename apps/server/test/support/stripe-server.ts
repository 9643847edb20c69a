import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { now } from '../../src/lib/clock.ts';

/**
 * A stand-in for the Stripe endpoints Parley uses (docs/billing.md "Stripe"), speaking Stripe's
 * request shapes (form-encoded, bracketed keys, bearer secret key) and answering with Stripe's
 * object shapes: customers, Checkout sessions, billing portal sessions and subscriptions
 * (retrieve, update) and invoices (list by customer). Tests then build the events Stripe would send and sign them with
 * `stripe.webhooks.generateTestHeaderString`.
 */

type Obj = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** `a[b][0][c]=x` → nested objects and arrays, as Stripe reads them. */
function parseForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let cur: Obj = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) cur[p] = value;
      else {
        const nextIsIndex = /^\d+$/.test(parts[i + 1] ?? '');
        cur[p] ??= nextIsIndex ? [] : {};
        cur = cur[p] as Obj;
      }
    });
  }
  return out;
}

export type StripeStandIn = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  prices: { pro: string; enterprise: string };
  customers: Map<string, Obj>;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Stripe.Subscription>;
  /** Invoices, newest last; `GET /v1/invoices?customer=` lists a customer's newest first. */
  invoices: Obj[];
  /** An invoice of `customer` for `amount` (cents), as Stripe issues one each period. */
  addInvoice(customer: string, amount: number, status?: 'paid' | 'open'): Obj;
  requests: { method: string; path: string; body: Obj }[];
  /** Completes a Checkout session as a paying customer would: the subscription exists. */
  completeCheckout(sessionId: string): { session: Obj; subscription: Stripe.Subscription };
  /** Changes a subscription as Stripe would (a renewal, a cancellation). */
  setSubscription(
    subId: string,
    patch: Partial<Stripe.Subscription> & { periodEnd?: Date },
  ): Stripe.Subscription;
  /** An event of `type` about `object`, `created` at `at` (default now). */
  event(type: string, object: unknown, at?: Date): Obj & { id: string };
  /** The signed request Stripe would send. */
  signed(event: Obj, secret?: string): { payload: string; headers: Record<string, string> };
  close(): Promise<void>;
};

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const prices = { pro: 'price_pro_monthly', enterprise: 'price_enterprise_monthly' };
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Stripe.Subscription>();
  const requests: StripeStandIn['requests'] = [];
  const invoices: Obj[] = [];
  const signer = new Stripe(secretKey);

  function subscriptionObject(customer: string, price: string, metadata: Obj): Stripe.Subscription {
    const start = now();
    const end = new Date(start.getTime() + 30 * 86_400_000);
    const subId = id('sub');
    return {
      id: subId,
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      created: unix(start),
      metadata,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${subId}`,
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            subscription: subId,
            price: { id: price, object: 'price', currency: 'usd', unit_amount: 2900 },
            quantity: 1,
            current_period_start: unix(start),
            current_period_end: unix(end),
          },
        ],
      },
      livemode: false,
    } as unknown as Stripe.Subscription;
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }
  const missing = (res: ServerResponse, what: string) =>
    send(res, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
    });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = parseForm(Buffer.concat(chunks).toString('utf8'));
    const path = (req.url ?? '').split('?')[0] ?? '';
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    requests.push({ method: req.method ?? '', path, body });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    if (req.method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', created: unix(now()), livemode: false, ...body };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const sid = id('cs_test');
      const session = {
        id: sid,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        subscription: null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `https://checkout.stripe.test/c/pay/${sid}`,
        livemode: false,
        _line_items: body.line_items,
        _subscription_data: body.subscription_data,
      };
      sessions.set(sid, session);
      return send(res, 200, session);
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(String(body.customer))) return missing(res, `customer: '${body.customer}'`);
      const pid = id('bps');
      return send(res, 200, {
        id: pid,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url,
        url: `https://billing.stripe.test/p/session/${pid}`,
        livemode: false,
      });
    }
    if (req.method === 'GET' && path === '/v1/invoices') {
      const limit = Number(query.get('limit') ?? 10);
      const mine = invoices.filter((i) => i.customer === query.get('customer')).reverse();
      return send(res, 200, {
        object: 'list',
        url: '/v1/invoices',
        has_more: mine.length > limit,
        data: mine.slice(0, limit),
      });
    }
    const m = /^\/v1\/subscriptions\/([\w]+)$/.exec(path);
    if (m?.[1]) {
      const sub = subscriptions.get(m[1]);
      if (!sub) return missing(res, `subscription: '${m[1]}'`);
      if (req.method === 'GET') return send(res, 200, sub);
      if (req.method === 'POST') {
        if (body.cancel_at_period_end !== undefined)
          sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
        if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Obj) } as Stripe.Metadata;
        const items = body.items as { id?: string; price?: string }[] | undefined;
        const item = sub.items.data[0] as unknown as { price: { id: string } };
        if (items?.[0]?.price && item) item.price = { ...item.price, id: items[0].price };
        return send(res, 200, sub);
      }
    }
    return send(res, 404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { type: 'api_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    prices,
    customers,
    sessions,
    subscriptions,
    invoices,
    requests,
    addInvoice(customer, amount, status = 'paid') {
      const start = now();
      const inv = {
        id: id('in'),
        object: 'invoice',
        customer,
        number: `PARL-${String(invoices.length + 1).padStart(4, '0')}`,
        status,
        currency: 'usd',
        amount_due: amount,
        amount_paid: status === 'paid' ? amount : 0,
        created: unix(start),
        period_start: unix(start),
        period_end: unix(new Date(start.getTime() + 30 * 86_400_000)),
        hosted_invoice_url: `https://invoice.stripe.test/i/${invoices.length + 1}`,
        invoice_pdf: `https://pay.stripe.test/invoice/${invoices.length + 1}/pdf`,
        livemode: false,
      };
      invoices.push(inv);
      return inv;
    },
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const items = session._line_items as { price: string }[];
      const data = session._subscription_data as { metadata?: Obj } | undefined;
      const sub = subscriptionObject(String(session.customer), items[0]?.price ?? '', data?.metadata ?? {});
      subscriptions.set(sub.id, sub);
      Object.assign(session, { status: 'complete', subscription: sub.id });
      return { session, subscription: sub };
    },
    setSubscription(subId, patch) {
      const sub = subscriptions.get(subId);
      if (!sub) throw new Error(`no subscription ${subId}`);
      const { periodEnd, ...rest } = patch;
      Object.assign(sub, rest);
      if (periodEnd) {
        (sub.items.data[0] as unknown as { current_period_end: number }).current_period_end = unix(periodEnd);
      }
      return sub;
    },
    event(type, object, at = now()) {
      const { _line_items: _l, _subscription_data: _s, ...clean } = object as Obj;
      return {
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: unix(at),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: JSON.parse(JSON.stringify(clean)) },
      };
    },
    signed(event, secret = webhookSecret) {
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({ payload, secret });
      return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
