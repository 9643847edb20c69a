import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { inbound, smsLine } from '../sms/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type SmsProvider, startSmsProvider } from '../support/sms-provider.ts';
import { createWorld, type World } from '../support/world.ts';

/** `GET /metrics` (docs/metrics.md): behind METRICS_TOKEN, in Prometheus's text format. */
const TOKEN = 'metrics-token-for-the-test';
let t: TestApp;
let w: World;
let provider: SmsProvider;
beforeAll(async () => {
  provider = await startSmsProvider();
  t = await createTestApp({
    METRICS_TOKEN: TOKEN,
    SMS_PROVIDER_API_BASE: provider.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  w = await createWorld(t);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const scrape = (authorization?: string) =>
  t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one series, e.g. `parley_job_queue_depth{job="ingestion"}`. */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('answers 401 without the token or with another one', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer not-the-token-at-all')).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);
  });

  it('does not exist when METRICS_TOKEN is unset', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('is not part of the API document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('reports request latency by route, chat timings, open streams, queues and the event loop', async () => {
    const assistantId = await createAssistant(t, w.owner, w.ws);
    const r = await chat(t, w.member, { assistantId, content: 'What are your opening hours?' });
    expect(r.status).toBe(200);
    // A source waiting for ingestion (no job runs in this test): the queue shows it.
    const source = await t.request({
      method: 'POST',
      url: `/api/assistants/${assistantId}/sources`,
      headers: w.owner.headers,
      payload: { type: 'text', name: 'Hours', text: 'Nine to five.' },
    });
    expect(source.statusCode, source.body).toBe(201);
    // An inbound SMS acknowledged and not yet answered (no job runs here either).
    const line = await smsLine(t, provider, w.owner, w.ws);
    expect((await inbound(t, line, '+15557770002', 'Are you open on Sunday?')).statusCode).toBe(200);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(
      /parley_http_request_duration_seconds_count\{method="POST",route="\/api\/assistants\/:assistantId\/sources",status="201"\} 1/,
    );
    expect(seriesValue(text, 'parley_chat_first_event_seconds_count{surface="chat"}')).toBe(1);
    expect(seriesValue(text, 'parley_chat_duration_seconds_count{surface="chat"}')).toBe(1);
    expect(seriesValue(text, 'parley_open_streams{kind="chat"}')).toBe(0);
    expect(seriesValue(text, 'parley_job_queue_depth{job="ingestion"}')).toBe(1);
    expect(seriesValue(text, 'parley_job_queue_oldest_seconds{job="ingestion"}')).toBeGreaterThanOrEqual(0);
    expect(seriesValue(text, 'parley_job_queue_depth{job="event-dispatch"}')).toBeGreaterThan(0);
    expect(seriesValue(text, 'parley_job_queue_depth{job="webhook-delivery"}')).toBe(0);
    expect(seriesValue(text, 'parley_job_queue_depth{job="sms-inbound"}')).toBe(1);
    expect(seriesValue(text, 'parley_job_queue_depth{job="sms-send"}')).toBe(0);
    expect(text).toContain('parley_nodejs_eventloop_lag_p99_seconds');
    // The pool's gauges exist where there is a pool (PostgreSQL), and nothing waits for it here.
    const pooled = t.ctx.database.kind === 'postgres';
    expect(seriesValue(text, 'parley_db_pool_waiting')).toBe(pooled ? 0 : undefined);
  });
});
