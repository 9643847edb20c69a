/**
 * The plumbing of bench/email.ts: the forwarded messages (nodemailer's MIME composer), the SMTP
 * server that receives the AI's replies (smtp-server on loopback, counting them by In-Reply-To),
 * a DNS server on loopback that answers every question at once with NXDOMAIN (dns2), the API
 * reads, and the counts read from the database once the server has stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dns2 from 'dns2';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { SMTPServer } from 'smtp-server';
import { WORDS } from './chat-setup.ts';
import { paced } from './support.ts';

export const KB = 1024;

/**
 * Starts `src/main.ts` (under `nice` when `niceness` is given), its output into `log`, and waits
 * for its "ready" line up to `limitMs` (a server starts in seconds, but minutes on a saturated
 * machine).
 */
export async function startApp(
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: string,
  limitMs: number,
  niceness?: number,
): Promise<{ child: ChildProcess; base: string }> {
  const fd = openSync(log, 'w');
  // EMAIL_BENCH_PROFILE=<dir>: each server writes a V8 CPU profile there when it stops.
  const prof = process.env.EMAIL_BENCH_PROFILE;
  // EMAIL_BENCH_NODE_ARGS: more flags for both servers' node (e.g. --trace-gc), space-separated.
  const extra = (process.env.EMAIL_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [
    ...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []),
    ...extra,
    '--import',
    'tsx',
    'src/main.ts',
  ];
  const [command, argv] =
    niceness === undefined
      ? [process.execPath, args]
      : ['nice', ['-n', String(niceness), process.execPath, ...args]];
  const child = spawn(command, argv, { cwd, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  for (const deadline = Date.now() + limitMs; ; await new Promise((r) => setTimeout(r, 200))) {
    const m = /Parley is ready: http:\/\/[^:]+:(\d+)/.exec(readFileSync(log, 'utf8').slice(0, 20_000));
    if (m?.[1]) return { child, base: `http://127.0.0.1:${m[1]}` };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${readFileSync(log, 'utf8').slice(-4000)}`);
    }
  }
}

/** A deterministic byte stream (xorshift32), so runs are alike and the bytes do not compress. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

/**
 * A PDF of `size` bytes whose bytes say PDF (`%PDF-1.7`, one stream object, xref-less trailer,
 * `%%EOF`): what file-type finds is what is declared. `tag` makes each file distinct.
 */
export function pdfOf(size: number, tag: string, body: Buffer): Buffer {
  const head = Buffer.from(`%PDF-1.7\n%\xe2\xe3\xcf\xd3\n% ${tag}\n1 0 obj\n<< /Length `, 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  const room = size - head.length - tail.length - 20;
  const stream = body.subarray(0, room);
  return Buffer.concat([head, Buffer.from(`${stream.length} >>\nstream\n`, 'latin1'), stream, tail]);
}

/** About `bytes` of plain text: the question first, then paragraphs of the shop's words. */
function bodyOf(question: string, i: number, bytes: number): string {
  const parts = [`Hello,\n\n${question}\n`];
  let size = parts[0]!.length;
  for (let p = 0; size < bytes; p++) {
    const line = Array.from({ length: 14 }, (_, j) => WORDS[(i * 31 + p * 7 + j * 13) % WORDS.length]).join(
      ' ',
    );
    parts.push(`${line}.`);
    size += line.length + 2;
    if (p % 6 === 5) parts.push('');
  }
  parts.push('\nThanks,\nA customer');
  return parts.join('\n');
}

export type Outgoing = { messageId: string; from: string; raw: Buffer };

/**
 * `count` distinct forwarded messages to `to`: each from its own sender (the replies-per-sender
 * limit never applies), with a unique Message-ID, a text body of about `bodyBytes` and a PDF
 * attachment of `attachmentBytes`.
 */
export async function buildMessages(
  count: number,
  to: string,
  questions: string[],
  opts: { run: string; first: number; bodyBytes: number; attachmentBytes: number },
): Promise<Outgoing[]> {
  const shared = noise(opts.attachmentBytes, 0x9e3779b9);
  const out: Outgoing[] = [];
  for (let k = 0; k < count; k++) {
    const i = opts.first + k;
    const from = `customer-${opts.run}-${i}@example.com`;
    const messageId = `<bench-${opts.run}-${i}@example.com>`;
    const raw = await new MailComposer({
      from: `Customer ${i} <${from}>`,
      to,
      subject: `Question ${i}: ${questions[i % questions.length]}`,
      messageId,
      date: new Date(),
      text: bodyOf(questions[i % questions.length]!, i, opts.bodyBytes),
      attachments: [
        {
          filename: `invoice-${i}.pdf`,
          contentType: 'application/pdf',
          content: pdfOf(opts.attachmentBytes, `${opts.run}-${i}`, shared),
        },
      ],
    })
      .compile()
      .build();
    out.push({ messageId, from, raw });
  }
  return out;
}

/** The SMTP server that gets the AI's replies; `byInReplyTo` counts them per inbound Message-ID. */
export async function startReplyCatcher() {
  const byInReplyTo = new Map<string, number>();
  let total = 0;
  let unthreaded = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * KB,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          total++;
          const key = typeof mail.inReplyTo === 'string' ? mail.inReplyTo.trim() : '';
          if (key) byInReplyTo.set(key, (byInReplyTo.get(key) ?? 0) + 1);
          else unthreaded++;
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    byInReplyTo,
    total: () => total,
    unthreaded: () => unthreaded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * EMAIL_DNS_SERVERS for the server: NXDOMAIN to every question, at once (the senders'
 * example.com publishes no SPF or DMARC here; the machine has no Internet to ask).
 */
export async function startDnsStub() {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      response.header.rcode = 3;
      send(response);
    },
  });
  const addr = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${(addr.udp as AddressInfo).port}`, close: () => server.close() };
}

export type ApiSample = { rps: number; latencies: number[]; errors: number };

const apiAgent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: apiAgent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * bench/api.ts's two reads (the session's workspace, the API key's workspace), alternating on
 * `connections` connections for `seconds`, closed loop, each request's latency kept; or, with a
 * `rate`, that many a second at fixed times (open loop), each latency from its time. Unlike a
 * load generator's summary, a request still running when the time is up is waited for and
 * counted: a sample during a stall holds the stall's latencies, not none.
 */
export async function apiSample(
  base: string,
  seed: { workspaceId: string; cookie: string; authorization: string | null },
  connections: number,
  seconds: number,
  /** Requests a second sent at their times whatever the answers (open loop); 0: closed loop. */
  rate = 0,
): Promise<ApiSample> {
  const reads: Array<[string, Record<string, string>]> = [
    [`${base}/api/workspaces/${seed.workspaceId}`, { cookie: seed.cookie }],
    [`${base}/api/v1/workspace`, { authorization: seed.authorization ?? '' }],
  ];
  let n = 0;
  const next = () => reads[n++ % reads.length]!;
  if (rate > 0) {
    // Each read at its time, its latency from that time (bench/support.ts paced), so a stall counts
    // for every read it held up.
    const sent = await paced(Math.round(rate * seconds), rate, () => {
      const [url, headers] = next();
      return get(url, headers);
    });
    return { rps: rate, latencies: sent.latencies, errors: sent.errors };
  }
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const read = async () => {
    const [url, headers] = next();
    const t = performance.now();
    const status = await get(url, headers).catch(() => 0);
    latencies.push(performance.now() - t);
    if (status !== 200) errors++;
  };
  const connection = async () => {
    while (performance.now() < end) await read();
  };
  await Promise.all(Array.from({ length: connections }, connection));
  return { rps: latencies.length / ((performance.now() - start) / 1000), latencies, errors };
}

/**
 * What the database holds for the channel, read after the server has stopped (PGlite is one
 * process per directory): inbound rows, inbound email messages, conversations, attachments, and
 * Message-IDs found more than once.
 */
export async function storedCounts(env: NodeJS.ProcessEnv, assistantId: string) {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { sql } = await import('drizzle-orm');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 1 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    const one = async (q: ReturnType<typeof sql>) => {
      const rows = (await database.db.execute(q)) as unknown as
        | { rows: Record<string, unknown>[] }
        | Record<string, unknown>[];
      const list = Array.isArray(rows) ? rows : rows.rows;
      return Number(Object.values(list[0] ?? {})[0] ?? 0);
    };
    const a = assistantId;
    return {
      inbound: await one(sql`select count(*) from email_inbound where assistant_id = ${a}`),
      inboundDone: await one(
        sql`select count(*) from email_inbound where assistant_id = ${a} and state = 'done'`,
      ),
      inboundMessages: await one(
        sql`select count(*) from email_messages where assistant_id = ${a} and direction = 'inbound'`,
      ),
      repeatedInbound: await one(
        sql`select count(*) from (select message_id_header from email_messages where assistant_id = ${a}
            and direction = 'inbound' group by 1 having count(*) > 1) d`,
      ),
      outboundMessages: await one(
        sql`select count(*) from email_messages where assistant_id = ${a} and direction = 'outbound'`,
      ),
      outboundSent: await one(
        sql`select count(*) from email_messages where assistant_id = ${a} and direction = 'outbound'
            and delivery_state = 'sent'`,
      ),
      conversations: await one(
        sql`select count(*) from conversations where assistant_id = ${a} and channel = 'email'`,
      ),
      attachments: await one(
        sql`select count(*) from email_attachments t join email_messages m on m.message_id = t.message_id
            where m.assistant_id = ${a}`,
      ),
    };
  } finally {
    await database.close();
  }
}
