import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, conversations, emailInbound, messages } from '../../src/db/schema/index.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  compose,
  type EmailChannel,
  type EmailEnv,
  emailChannel,
  forward,
  type MailServer,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/**
 * Mail in by forwarding, answered by the AI by SMTP in the thread; the customer's answer joins the
 * conversation; a person's reply from the inbox goes out as email (docs/email.md).
 */
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let ch: EmailChannel;
beforeAll(async () => {
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
  ch = await emailChannel(e.t, w.owner, w.ws, smtp, { signature: 'The Acme team\nacme.test' });
  e.t.startJobs(['email-inbound', 'email-send'], { 'email-inbound': 50, 'email-send': 50 });
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

const sentTo = (address: string) => smtp.sent.filter((m) => m.to.includes(address));
const waitSent = (address: string, n: number) =>
  waitFor(async () => sentTo(address).length >= n, 15_000, `${n} mails to ${address}`);
const conversationsOf = () =>
  e.t.ctx.db.select().from(conversations).where(eq(conversations.assistantId, ch.assistantId));
const messagesOf = (conversationId: string) =>
  e.t.ctx.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(messages.createdAt);
const inboxMessages = async (conversationId: string) => {
  const res = await e.t.request({
    method: 'GET',
    url: `/api/inbox/conversations/${conversationId}/messages`,
    headers: w.owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<Record<string, unknown> & { email?: Record<string, unknown> }>;
};

describe('inbound by forwarding', () => {
  it('accepts 202, answers by SMTP in the thread; a repeat is stored once', async () => {
    const raw = await compose({
      from: 'Anna Customer <anna@example.com>',
      to: ch.address,
      subject: 'Order 1234 is late',
      messageId: '<order-1234@example.com>',
      text: 'Hello, where is my order 1234?',
    });
    const first = await forward(e.t, ch.token, raw);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ data: { accepted: true } });
    expect((await forward(e.t, ch.token, raw)).statusCode).toBe(202);
    await waitSent('anna@example.com', 1);
    const stored = await e.t.ctx.db
      .select()
      .from(emailInbound)
      .where(eq(emailInbound.assistantId, ch.assistantId));
    expect(stored.filter((r) => r.messageIdHeader === '<order-1234@example.com>')).toHaveLength(1);

    const reply = sentTo('anna@example.com')[0]!;
    expect(reply.parsed.from?.value[0]).toEqual({ address: ch.address, name: 'Acme Support' });
    expect(reply.parsed.subject).toBe('Re: Order 1234 is late');
    expect(reply.parsed.inReplyTo).toBe('<order-1234@example.com>');
    expect(reply.parsed.references).toBe('<order-1234@example.com>');
    expect(reply.parsed.messageId).toMatch(new RegExp(`@${ch.address.split('@')[1]!.replace('.', '\\.')}>$`));
    expect(reply.parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(reply.parsed.text).toContain('Hello from the stand-in model.');
    expect(reply.parsed.text).toContain('-- \nThe Acme team\nacme.test');

    const [conv] = (await conversationsOf()).filter((c) => c.title === 'Order 1234 is late');
    expect(conv).toMatchObject({ channel: 'email', status: 'open' });
    const [contact] = await e.t.ctx.db.select().from(contacts).where(eq(contacts.id, conv!.contactId!));
    expect(contact).toMatchObject({ email: 'anna@example.com', name: 'Anna Customer', source: 'email' });
    const shown = await inboxMessages(conv!.id);
    expect(shown.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(shown[0]!.content).toBe('Hello, where is my order 1234?');
    expect(shown[0]!.email).toMatchObject({
      direction: 'inbound',
      subject: 'Order 1234 is late',
      from: { address: 'anna@example.com', name: 'Anna Customer' },
      messageId: '<order-1234@example.com>',
      attachments: [],
      marked: false,
      notAnswered: null,
    });
    expect(shown[1]!.email).toMatchObject({ direction: 'outbound' });
    // The SMTP server has the reply; its delivery is recorded just after the server said yes.
    await expect
      .poll(async () => (await inboxMessages(conv!.id))[1]!.email?.delivery)
      .toEqual({ state: 'sent', error: null });

    // The customer answers from Gmail, quoting the reply: the same conversation, only the new text.
    const answer = await compose({
      from: 'Anna Customer <anna@example.com>',
      to: ch.address,
      subject: 'Re: Order 1234 is late',
      inReplyTo: reply.parsed.messageId,
      references: ['<order-1234@example.com>', reply.parsed.messageId!],
      text: `Thanks! And can I change the address?\n\nOn Tue, Nov 24, 2026 at 10:00 AM Acme Support <${ch.address}> wrote:\n> Hello from the stand-in model.\n>\n> -- \n> The Acme team\n`,
      html: `<div dir="ltr">Thanks! And can I change the address?</div><br><div class="gmail_quote"><div class="gmail_attr">On Tue, Nov 24, 2026 at 10:00 AM Acme Support wrote:<br></div><blockquote class="gmail_quote">Hello from the stand-in model.</blockquote></div>`,
    });
    expect((await forward(e.t, ch.token, answer)).statusCode).toBe(202);
    await waitSent('anna@example.com', 2);
    const again = (await conversationsOf()).filter((c) => c.title === 'Order 1234 is late');
    expect(again).toHaveLength(1);
    const all = await messagesOf(conv!.id);
    expect(all.map((m) => m.content)[2]).toBe('Thanks! And can I change the address?');
    const second = sentTo('anna@example.com')[1]!;
    expect(second.parsed.subject).toBe('Re: Order 1234 is late');
    expect(second.parsed.inReplyTo).toBe(answer.toString().match(/Message-ID: (<[^>]+>)/i)![1]);
  });

  it('an unknown token is 404; an empty body 400', async () => {
    const raw = 'From: a@example.com\r\nSubject: x\r\n\r\nHi\r\n';
    expect((await forward(e.t, 'A'.repeat(43), raw)).statusCode).toBe(404);
    expect((await forward(e.t, ch.token, Buffer.alloc(0))).statusCode).toBe(400);
  });

  it("a person's inbox reply goes out as email in the thread; handoff holds the AI back", async () => {
    const raw = await compose({
      from: 'bob@example.com',
      to: ch.address,
      subject: 'Refund',
      messageId: '<refund-1@example.com>',
      text: 'I want a refund.',
    });
    await forward(e.t, ch.token, raw);
    await waitSent('bob@example.com', 1);
    const conv = (await conversationsOf()).find((c) => c.title === 'Refund')!;
    const base = `/api/inbox/conversations/${conv.id}`;
    expect(
      (await e.t.request({ method: 'POST', url: `${base}/handoff`, headers: w.owner.headers })).statusCode,
    ).toBe(200);
    const posted = await e.t.request({
      method: 'POST',
      url: `${base}/messages`,
      headers: w.owner.headers,
      payload: { content: 'Your refund is on its way.' },
    });
    expect(posted.statusCode).toBe(201);
    await waitSent('bob@example.com', 2);
    const human = sentTo('bob@example.com')[1]!;
    expect(human.parsed.text).toContain('Your refund is on its way.');
    expect(human.parsed.subject).toBe('Re: Refund');
    expect(human.parsed.inReplyTo).toBe('<refund-1@example.com>');
    expect(human.parsed.headers.get('auto-submitted')).toBeUndefined();
    // In handoff the customer's next mail is stored for the person; the AI does not answer.
    const next = await compose({
      from: 'bob@example.com',
      to: ch.address,
      subject: 'Re: Refund',
      inReplyTo: human.parsed.messageId,
      text: 'Thank you!',
    });
    await forward(e.t, ch.token, next);
    await waitFor(
      async () => (await messagesOf(conv.id)).some((m) => m.content === 'Thank you!'),
      10_000,
      'stored',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo('bob@example.com')).toHaveLength(2);
    // Released, closed: the conversation closes; a new mail in the thread reopens it.
    expect(
      (await e.t.request({ method: 'POST', url: `${base}/close`, headers: w.owner.headers })).statusCode,
    ).toBe(200);
    const later = await compose({
      from: 'bob@example.com',
      to: ch.address,
      subject: 'Re: Refund',
      inReplyTo: human.parsed.messageId,
      text: 'One more question.',
    });
    await forward(e.t, ch.token, later);
    await waitFor(
      async () => (await messagesOf(conv.id)).some((m) => m.content === 'One more question.'),
      10_000,
      'stored',
    );
    const [reopened] = await e.t.ctx.db.select().from(conversations).where(eq(conversations.id, conv.id));
    expect(reopened!.status).not.toBe('closed');
  });

  it('attachments: stored, listed, downloaded by members typed by their bytes; HTML sanitised', async () => {
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'),
      Buffer.alloc(2048, 32),
    ]);
    const raw = await compose({
      from: 'carla@example.com',
      to: ch.address,
      subject: 'Invoice attached',
      text: 'See the invoice.',
      html: '<p onclick="steal()">See the <b>invoice</b>.</p><script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="http://tracker.test/p.gif"><a href="https://acme.test/">ok</a>',
      attachments: [
        { filename: 'invoice.png', content: pdf, contentType: 'image/png' },
        { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
      ],
    });
    await forward(e.t, ch.token, raw);
    await waitSent('carla@example.com', 1);
    const conv = (await conversationsOf()).find((c) => c.title === 'Invoice attached')!;
    const [first] = await inboxMessages(conv.id);
    const email = first!.email as {
      html: string;
      attachments: {
        id: string;
        filename: string;
        contentType: string;
        declaredType: string;
        size: number;
        url: string;
      }[];
    };
    expect(email.html).toContain('<b>invoice</b>');
    expect(email.html).not.toMatch(/script|onclick|javascript:|tracker\.test/);
    expect(email.html).toContain('href="https://acme.test/"');
    expect(email.attachments.map((a) => [a.filename, a.contentType, a.declaredType, a.size])).toEqual([
      ['invoice.png', 'application/pdf', 'image/png', pdf.length],
      ['page.html', 'text/plain', 'text/html', 25],
    ]);
    expect(first!.content).toBe('See the invoice.');
    const pdfRes = await e.t.request({
      method: 'GET',
      url: email.attachments[0]!.url,
      headers: w.member.headers,
    });
    expect(pdfRes.statusCode).toBe(200);
    expect(pdfRes.headers['content-type']).toBe('application/pdf');
    expect(pdfRes.headers['content-disposition']).toBe(
      `attachment; filename="invoice.png"; filename*=UTF-8''invoice.png`,
    );
    expect(pdfRes.headers['x-content-type-options']).toBe('nosniff');
    expect(pdfRes.rawPayload.equals(pdf)).toBe(true);
    const html = await e.t.request({
      method: 'GET',
      url: email.attachments[1]!.url,
      headers: w.member.headers,
    });
    expect(html.headers['content-type']).not.toContain('html');
    expect(html.headers['content-disposition']).toMatch(/^attachment;/);
    const outsider = await e.t.request({
      method: 'GET',
      url: email.attachments[0]!.url,
      headers: w.outsider.headers,
    });
    expect(outsider.statusCode).toBe(404);
    const anonymous = await e.t.request({ method: 'GET', url: email.attachments[0]!.url });
    expect(anonymous.statusCode).toBe(401);
    // The AI read only the text.
    const asked = e.llm.requests.at(-1)!;
    expect(JSON.stringify(asked.body)).not.toContain('PDF-1.4');
  });
});
