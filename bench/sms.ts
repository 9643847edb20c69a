/**
 * SMS benchmark (docs/performance.md "SMS"): the acknowledgement time of signed inbound webhooks
 * posted at a steady 200 requests/s (target p99 under 20 ms on PostgreSQL), and replies sent per
 * second with the instant offline model, through a local stand-in of the provider's REST API.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/sms.ts
 *   npx tsx bench/sms.ts          # PGlite
 *
 * SMS_BENCH_RATE (200 requests/s), SMS_BENCH_SECONDS (10), SMS_BENCH_BURST (1000 messages for the
 * replies' rate), SMS_BENCH_SENDERS (100 customer numbers), SMS_BENCH_SPLIT (1: the posts go to a
 * web process with JOBS=none and a worker process at nice 10 answers; 0: one process does both).
 *
 * Every request is a real provider post: form-encoded, a distinct MessageSid, signed with the
 * provider's own library. Latency is measured from each request's scheduled time (an open loop:
 * a slow answer delays nobody's clock). The floor, measured in the same run on the same database,
 * is a bare node:http server doing what any implementation must: parse the form, check the
 * HMAC-SHA1 signature, insert the message once (`on conflict do nothing`), answer TwiML. For the
 * replies, the floor is the stand-in provider's own rate: sends posted straight to it.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paced, seedOwner } from './support.ts';
import { call, pct, type Server, scratchDatabase, startServer, stopServer } from './widget-support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const rate = Number(process.env.SMS_BENCH_RATE ?? 200);
const seconds = Number(process.env.SMS_BENCH_SECONDS ?? 10);
const burst = Number(process.env.SMS_BENCH_BURST ?? 1000);
const senders = Number(process.env.SMS_BENCH_SENDERS ?? 100);
const split = process.env.SMS_BENCH_SPLIT !== '0';
const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** The floor server (a child process): form, signature, one insert, TwiML. */
async function floor() {
  const token = process.env.FLOOR_TOKEN ?? '';
  type Query = (text: string, params: unknown[]) => Promise<unknown>;
  let query: Query;
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const p = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
    query = (text, params) => p.query(text, params);
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ dataDir: join(process.env.DATA_DIR!, 'floor') });
    query = (text, params) => db.query(text, params);
  }
  await query(
    'create table if not exists bench_sms_floor (sid text primary key, sender text, body text, at timestamptz default now())',
    [],
  );
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', async () => {
      const form = new URLSearchParams(body);
      const url = `http://${req.headers.host}${req.url}`;
      const data = [...form.keys()].sort().reduce((acc, k) => acc + k + form.get(k), url);
      const expected = createHmac('sha1', token).update(data).digest('base64');
      if (expected !== req.headers['x-twilio-signature']) {
        res.writeHead(403).end();
        return;
      }
      await query(
        'insert into bench_sms_floor (sid, sender, body) values ($1, $2, $3) on conflict do nothing',
        [form.get('MessageSid'), form.get('From'), form.get('Body')],
      );
      res.writeHead(200, { 'content-type': 'text/xml' }).end(TWIML);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(`Floor ready: http://127.0.0.1:${port}`);
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One signed form post; resolves with its status. */
function post(url: string, form: Record<string, string>, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = new URLSearchParams(form).toString();
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

type Sign = (token: string, url: string, params: Record<string, string>) => string;

/** `count` distinct inbound messages, signed for `url` (the provider's library). */
function messages(count: number, url: string, token: string, to: string, sign: Sign, newSid: () => string) {
  return Array.from({ length: count }, (_, i) => {
    const form = {
      MessageSid: newSid(),
      AccountSid: 'AC00000000000000000000000000000000',
      From: `+1999${String(i % senders).padStart(7, '0')}`,
      To: to,
      Body: `Hello, when do you open? (${i})`,
      NumMedia: '0',
      ApiVersion: '2010-04-01',
    };
    return { form, signature: sign(token, url, form) };
  });
}

/** Posts them at `perSecond`, open loop (support.ts `paced`). */
const postPaced = (
  url: string,
  list: Array<{ form: Record<string, string>; signature: string }>,
  perSecond: number,
) =>
  paced(
    list.length,
    perSecond,
    (i) => post(url, list[i]!.form, list[i]!.signature),
    (s) => s === 200,
  );

const ms = (x: number) => `${x.toFixed(1)} ms`;
const summary = (xs: number[]) =>
  `p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))}, p99 ${ms(pct(xs, 99))}, max ${ms(Math.max(...xs))}`;

async function main() {
  const { startSmsProvider, newAccountSid, newAuthToken, newMessageSid, signRequest } = await import(
    '../apps/server/test/support/sms-provider.ts'
  );
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-sms-'));
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'sms')
    : undefined;
  const kind = scratch ? 'PostgreSQL' : 'PGlite';
  const provider = await startSmsProvider();
  const servers: Server[] = [];
  try {
    const env: NodeJS.ProcessEnv = {
      ...{
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      ...{ DATA_DIR: join(dir, 'app'), LOG_LEVEL: 'warn', AI_PROVIDER: 'offline' },
      ...{ SMS_PROVIDER_API_BASE: provider.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const count = rate * seconds;
    console.log(
      `SMS benchmark on ${kind}: ${count} signed inbound posts at ${rate}/s, then ${burst} at once; ${split ? 'a web process (JOBS=none) and a worker process (JOBS=all, nice 10)' : 'one process running every job'}; node ${process.version}`,
    );

    // The floor first (PGlite's files hold one process at a time).
    const token = newAuthToken();
    const f = await startServer(
      serverDir,
      { ...env, FLOOR_TOKEN: token },
      join(dir, 'floor.log'),
      [fileURLToPath(import.meta.url), 'floor'],
      'floor',
    );
    servers.push(f);
    const floorUrl = `${f.base}/sms/webhook`;
    await postPaced(
      floorUrl,
      messages(200, floorUrl, token, '+15550000000', signRequest, newMessageSid),
      rate,
    ); // warm-up
    const fl = await postPaced(
      floorUrl,
      messages(count, floorUrl, token, '+15550000000', signRequest, newMessageSid),
      rate,
    );
    await stopServer(f.child);
    servers.pop();

    const s = await seedOwner(env, { plan: 'enterprise', monthlyCredits: 1_000_000_000 });
    // Split (the default): the web process runs no jobs and a worker process, at a lower priority,
    // answers (docs/jobs.md "Which process runs which job"); SMS_BENCH_SPLIT=0 runs one process.
    const a = await startServer(serverDir, split ? { ...env, JOBS: 'none' } : env, join(dir, 'app.log'));
    servers.push(a);
    if (split)
      servers.push(await startServer(serverDir, env, join(dir, 'worker.log'), undefined, 'worker', 10));
    const owner = { cookie: s.cookie, origin: a.base };
    const { data: assistant } = await call('POST', `${a.base}/api/assistants`, owner, {
      workspaceId: s.workspaceId,
      name: 'SMS bench',
    });
    const line = { sid: newAccountSid(), token: newAuthToken(), number: '+15550109999' };
    provider.addAccount(line.sid, line.token, { [line.number]: {} });
    await call('POST', `${a.base}/api/assistants/${assistant.id}/sms`, owner, {
      providerAccountSid: line.sid,
      providerAuthToken: line.token,
      providerPhoneNumber: line.number,
    });
    const url = `${a.base}/api/sms/webhook/${assistant.id}`;
    const list = (n: number) => messages(n, url, line.token, line.number, signRequest, newMessageSid);

    // Acknowledgements at a steady rate (the replies are made and sent meanwhile).
    await postPaced(url, list(200), rate); // warm-up
    await provider.waitForSent(200, 120_000);
    const ack = await postPaced(url, list(count), rate);
    const sentBefore = 200;
    await provider.waitForSent(sentBefore + count, 300_000);

    // Replies per second: a burst posted at once, until every reply has reached the provider.
    const t0 = performance.now();
    const burstList = list(burst);
    await Promise.all(burstList.map(({ form, signature }) => post(url, form, signature)));
    await provider.waitForSent(sentBefore + count + burst, 600_000);
    const replySeconds = (performance.now() - t0) / 1000;
    const replyRate = burst / replySeconds;

    // The replies' floor: the same number of sends posted straight to the stand-in, 50 at a time.
    const auth = `Basic ${Buffer.from(`${line.sid}:${line.token}`).toString('base64')}`;
    const sendUrl = `${provider.url}/2010-04-01/Accounts/${line.sid}/Messages.json`;
    const t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < burst) {
          next++;
          await new Promise<void>((resolve, reject) => {
            const req = request(sendUrl, {
              method: 'POST',
              agent,
              headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
            });
            req.on('response', (res) => {
              res.resume();
              res.on('end', () => resolve());
            });
            req.on('error', reject);
            req.end(new URLSearchParams({ To: '+19990000001', From: line.number, Body: 'floor' }).toString());
          });
        }
      }),
    );
    const floorRate = burst / ((performance.now() - t1) / 1000);

    console.log(
      `\nsigned inbound acknowledgement at ${rate}/s (${count} posts, latency from the scheduled time):`,
    );
    console.log(`  floor (form + signature + insert + TwiML): ${summary(fl.latencies)}; errors ${fl.errors}`);
    console.log(
      `  Parley POST /api/sms/webhook/{id}:          ${summary(ack.latencies)}; errors ${ack.errors}`,
    );
    const p99 = pct(ack.latencies, 99);
    console.log(
      `  p99 ${ms(p99)} against the target 20 ms: ${p99 < 20 ? 'met' : 'NOT met'}; ${(p99 / pct(fl.latencies, 99)).toFixed(2)}x the floor's p99`,
    );
    console.log(`\nreplies sent (offline model, stand-in provider), ${burst} messages posted at once:`);
    console.log(
      `  Parley: ${replyRate.toFixed(0)} replies/s (${replySeconds.toFixed(1)} s from the first post to the last reply at the provider)`,
    );
    console.log(
      `  floor (sends straight to the stand-in, 50 at a time): ${floorRate.toFixed(0)} sends/s; Parley at ${((replyRate / floorRate) * 100).toFixed(1)}% of it`,
    );
  } finally {
    for (const srv of servers) await stopServer(srv.child);
    await provider.close();
    agent.destroy();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'floor') await floor();
else await main();
