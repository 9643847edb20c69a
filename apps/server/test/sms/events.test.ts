import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, smsSessions } from '../../src/db/schema/index.ts';
import type { StartedJobs } from '../../src/jobs/catalog.ts';
import type { TestApp } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, createHookB, runWorkers, waitForQuiet } from '../support/webhooks.ts';
import { createWorld, type World } from '../support/world.ts';
import { inbound, smsApp, smsLine } from './helpers.ts';

/**
 * docs/sms.md "Events": an SMS conversation's events reach webhooks under each format's names
 * (docs/webhooks.md): Form A `conversation.created`, `message.created`,
 * `conversation.ended`, `contact.created`; Form B `chat.session.created`, `chat.message.created`,
 * `contact.created` (Form B has no name for an ended conversation).
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
let rx: Receiver;
const jobs: StartedJobs[] = [];
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  rx = await new Receiver().start();
  jobs.push(runWorkers(t), t.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50, 'sms-send': 50 }));
});
afterAll(async () => {
  await Promise.all(jobs.map((j) => j.stop(1000)));
  await rx.close();
  await t.close();
  await provider.close();
});

type Envelope = {
  id?: string;
  event: string;
  workspaceId: string;
  timestamp: string;
  data: Record<string, unknown>;
};
const bodies = (path: string) => rx.hits(path).map((h) => JSON.parse(h.body) as Envelope);

describe('SMS events delivered to webhooks of both formats', () => {
  it('A: conversation.created, message.created ×2, contact.created, then conversation.ended; B: the same under its names', async () => {
    await createHookA(t, w.ws, w.owner.headers, { url: rx.url('/a'), events: ['*'] });
    await createHookB(t, w.owner.headers, { url: rx.url('/b'), events: ['*'], workspaceId: w.ws });
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = `+1777${String(process.pid % 1000).padStart(3, '0')}0001`;

    await inbound(t, line, from, 'first');
    await waitFor(() => provider.sent.some((m) => m.to === from), 15_000, 'the reply');
    const [first] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.assistantId, line.assistantId));
    // Silence past the session timeout; the next message ends the session and opens another.
    await t.ctx.db
      .update(smsSessions)
      .set({ lastMessageAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(smsSessions.assistantId, line.assistantId));
    await inbound(t, line, from, 'second');
    await waitFor(() => provider.sent.filter((m) => m.to === from).length === 2, 15_000, 'the second reply');
    await waitForQuiet(t, w.ws);

    const about = (e: Envelope, id: string) => e.data.id === id || e.data.conversationId === id;
    const a = bodies('/a').filter((e) => e.event.startsWith('contact.') || about(e, first!.id));
    expect(a.map((e) => e.event).sort()).toEqual(
      [
        'contact.created',
        'conversation.created',
        'conversation.ended',
        'message.created',
        'message.created',
      ].sort(),
    );
    expect(a.every((e) => typeof e.id === 'string' && e.workspaceId === w.ws)).toBe(true);
    expect(a.find((e) => e.event === 'conversation.created')?.data).toMatchObject({
      channel: 'sms',
      id: first!.id,
    });
    expect(a.find((e) => e.event === 'contact.created')?.data).toMatchObject({ phone: from });
    expect(a.find((e) => e.event === 'conversation.ended')?.data).toMatchObject({ id: first!.id });
    expect(
      a
        .filter((e) => e.event === 'message.created')
        .map((e) => (e.data as { role: string }).role)
        .sort(),
    ).toEqual(['assistant', 'user']);

    const b = bodies('/b').filter((e) => e.event.startsWith('contact.') || about(e, first!.id));
    expect(b.map((e) => e.event).sort()).toEqual(
      ['chat.message.created', 'chat.message.created', 'chat.session.created', 'contact.created'].sort(),
    );
    expect(b.every((e) => e.id === undefined)).toBe(true);
    // Nothing of Form A's vocabulary reaches Form B, and the reverse.
    expect(
      bodies('/b').some((e) =>
        ['conversation.created', 'message.created', 'conversation.ended'].includes(e.event),
      ),
    ).toBe(false);
    expect(bodies('/a').some((e) => e.event.startsWith('chat.'))).toBe(false);
  });
});
