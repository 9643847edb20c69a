import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailMessages, messages } from '../../src/db/schema/index.ts';
import { bodyOf } from '../../src/features/email/email.outbound.ts';
import { replySubject } from '../../src/features/email/email.parse.ts';
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
 * docs/email.md "Threading": only what the customer wrote this time is stored, whichever client
 * quoted the earlier mail (shapes of real Gmail, Outlook and Apple Mail replies, plain and
 * HTML-only); a reply's subject has one `Re: `; its sources and the signature close it.
 */
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let ch: EmailChannel;
beforeAll(async () => {
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
  ch = await emailChannel(e.t, w.owner, w.ws, smtp, { aiReplies: false });
  e.t.startJobs(['email-inbound'], { 'email-inbound': 30 });
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

let seq = 0;
async function storedText(mail: Parameters<typeof compose>[0]) {
  const id = `<reply-${++seq}-${process.pid}@x.test>`;
  expect(
    (await forward(e.t, ch.token, await compose({ to: ch.address, messageId: id, ...mail }))).statusCode,
  ).toBe(202);
  await waitFor(
    async () =>
      (await e.t.ctx.db.select().from(emailMessages).where(eq(emailMessages.messageIdHeader, id))).length ===
      1,
    10_000,
    id,
  );
  const [side] = await e.t.ctx.db.select().from(emailMessages).where(eq(emailMessages.messageIdHeader, id));
  const [msg] = await e.t.ctx.db.select().from(messages).where(eq(messages.id, side!.messageId));
  return msg!.content;
}

describe('the new text of a reply', () => {
  it('Gmail, plain', async () => {
    expect(
      await storedText({
        from: 'anna@gmail.test',
        subject: 'Re: Order',
        text: 'Thanks, that works!\n\nOn Tue, Nov 24, 2026 at 10:00 AM Acme Support <support@acme.test> wrote:\n> Hello Anna,\n> try this\n',
      }),
    ).toBe('Thanks, that works!');
  });

  it('Outlook, plain, with its From/Sent block and a sign-off', async () => {
    expect(
      await storedText({
        from: 'bob@outlook.test',
        subject: 'RE: Password',
        text: 'Yes please reset it.\n\nKind regards\nBob\n\n________________________________\nFrom: Acme Support <support@acme.test>\nSent: Tuesday, November 24, 2026 10:00 AM\nTo: Bob <bob@outlook.test>\nSubject: Re: Password\n\nHello Bob,\nwe can reset it.\n',
      }),
    ).toBe('Yes please reset it.');
  });

  it('Apple Mail, plain, "Sent from my iPhone"', async () => {
    expect(
      await storedText({
        from: 'carl@icloud.test',
        subject: 'Re: Delivery',
        text: 'Great, thank you.\n\nSent from my iPhone\n\n> On 24 Nov 2026, at 10:00, Acme Support <support@acme.test> wrote:\n> \n> Hello\n',
      }),
    ).toBe('Great, thank you.');
  });

  it('a signature after "-- " is cut', async () => {
    expect(
      await storedText({
        from: 'dora@example.com',
        subject: 'Late order',
        text: 'My order is late.\n\n-- \nDora Jones\nACME Corp | +1 555 0100\n',
      }),
    ).toBe('My order is late.');
  });

  it('HTML only (Gmail and Outlook shapes): the quote is cut from the text', async () => {
    expect(
      await storedText({
        from: 'erin@gmail.test',
        subject: 'Re: Invoice',
        html: '<div dir="ltr">Got it, thanks.</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, Nov 24, 2026 at 10:00 AM Acme Support &lt;support@acme.test&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">Here is the invoice.</blockquote></div>',
      }),
    ).toBe('Got it, thanks.');
    const outlook = await storedText({
      from: 'finn@outlook.test',
      subject: 'RE: Invoice',
      html: '<div>Please send it again.</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Acme Support &lt;support@acme.test&gt;<br><b>Sent:</b> Tuesday, November 24, 2026 10:00 AM<br><b>Subject:</b> Invoice</div><div>Here is the invoice.</div>',
    });
    expect(outlook).toContain('Please send it again.');
    expect(outlook).not.toContain('Here is the invoice.');
  });
});

describe('what a reply looks like', () => {
  it('one Re: whatever the client put there', () => {
    expect(replySubject('Order')).toBe('Re: Order');
    expect(replySubject('RE: Re: re:Order')).toBe('Re: Order');
    expect(replySubject('AW: Bestellung')).toBe('Re: Bestellung');
    expect(replySubject('')).toBe('Re: (no subject)');
    expect(replySubject('Fwd: Order')).toBe('Re: Fwd: Order');
  });

  it('sources as titles and links, then the signature', () => {
    const cite = (title: string | null, url: string | null, sourceId = 's1') => ({
      index: 1,
      chunkId: 'c',
      sourceId,
      title,
      url,
    });
    expect(
      bodyOf(
        'Returns take 30 days.',
        [
          cite('Returns policy', 'https://acme.test/returns'),
          cite('Returns policy', 'https://acme.test/returns'),
          cite('FAQ', null, 's2'),
        ],
        'Acme Support',
      ),
    ).toBe(
      'Returns take 30 days.\n\nSources:\n- Returns policy: https://acme.test/returns\n- FAQ\n\n-- \nAcme Support\n',
    );
    expect(bodyOf('Hi', [], '')).toBe('Hi\n');
  });
});
