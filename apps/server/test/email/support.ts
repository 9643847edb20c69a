import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { SMTPServer } from 'smtp-server';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';

/**
 * The email channel's test stand-ins (docs/email.md): an SMTP server on loopback that checks a
 * login and keeps each message's bytes (the smtp-server library), a DNS server on loopback
 * answering TXT questions from a zone the test writes (dns2, speaking real DNS over UDP), and
 * builders of raw messages (nodemailer's MIME composer).
 */

export type Sent = {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: Awaited<ReturnType<typeof simpleParser>>;
};
export type MailServer = {
  host: string;
  port: number;
  user: string;
  pass: string;
  sent: Sent[];
  /** Every message's RCPT TO also handed here (e.g. to forward it to another channel). */
  onMail?: (m: Sent) => void;
  close(): Promise<void>;
};

export async function startMailServer(user = 'parley', pass = 'secret-pass'): Promise<MailServer> {
  const out: MailServer = { host: '127.0.0.1', port: 0, user, pass, sent: [], close: async () => undefined };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const mail: Sent = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        };
        out.sent.push(mail);
        out.onMail?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out.port = (server.server.address() as AddressInfo).port;
  out.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return out;
}

/** A DNS server answering TXT records from `zone` (name → strings); everything else NXDOMAIN. */
export async function startDns(zone: Map<string, (string | string[])[]>) {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const q = request.questions[0];
      const records = q && q.type === Packet.TYPE.TXT ? zone.get(q.name.toLowerCase()) : undefined;
      for (const data of records ?? []) {
        response.answers.push({
          name: q!.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data,
          // dns2's type wants a parsed record; a plain one is what its encoder takes.
        } as never);
      }
      if (!records) response.header.rcode = 3;
      send(response);
    },
  });
  const addr = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addr.udp as AddressInfo).port;
  return { server: `127.0.0.1:${port}`, zone, close: () => server.close() };
}

export type EmailEnv = { t: TestApp; llm: LlmServer; dns: Awaited<ReturnType<typeof startDns>> };

/** The app with the LLM stand-in, a local DNS, private hosts allowed (the stand-ins are on loopback). */
export async function startEmailApp(env: Record<string, string> = {}): Promise<EmailEnv> {
  const llm = await startLlmServer({ instant: true });
  const dns = await startDns(new Map());
  const t = await createTestApp({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    EMAIL_DNS_SERVERS: dns.server,
    ...env,
  });
  return { t, llm, dns };
}

export async function stopEmailApp(e: EmailEnv) {
  await e.t.close();
  await e.llm.close();
  e.dns.close();
}

let seq = 0;
/** A fresh address per call (addresses are unique across the server). */
export const newAddress = (local = 'support') => `${local}-${process.pid}-${++seq}@acme.test`;

export const smtpOf = (s: MailServer) => ({
  host: s.host,
  port: s.port,
  secure: false,
  username: s.user,
  password: s.pass,
});

export type EmailChannel = { assistantId: string; address: string; token: string; forwardUrl: string };

/** An assistant with a forwarding email channel sending through `smtp`. */
export async function emailChannel(
  t: TestApp,
  owner: TestUser,
  workspaceId: string,
  smtp: MailServer,
  extra: Record<string, unknown> = {},
): Promise<EmailChannel> {
  const assistantId = await createAssistant(t, owner, workspaceId);
  const address = newAddress();
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/email`,
    headers: owner.headers,
    payload: {
      address,
      displayName: 'Acme Support',
      inbound: { mode: 'forward' },
      smtp: smtpOf(smtp),
      ...extra,
    },
  });
  if (res.statusCode !== 201) throw new Error(`email config: ${res.statusCode} ${res.body}`);
  const forwardUrl = res.json().data.inbound.forwardUrl as string;
  return { assistantId, address, forwardUrl, token: forwardUrl.split('/').pop()! };
}

/** Posts a raw message to the forwarding URL, as a mail server's forwarding rule would. */
export function forward(t: TestApp, token: string, raw: Buffer | string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/email/inbound/${token}`,
    headers: { 'content-type': 'message/rfc822' },
    payload: typeof raw === 'string' ? Buffer.from(raw) : raw,
  });
}

export type Compose = ConstructorParameters<typeof MailComposer>[0];
/** A raw RFC 5322 message built by nodemailer's composer (the MIME real clients send). */
export function compose(mail: Compose): Promise<Buffer> {
  return new MailComposer(mail).compile().build();
}
