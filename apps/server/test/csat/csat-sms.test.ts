import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../../src/lib/clock.ts';
import { inbound, smsLine } from '../sms/helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
} from '../sms/inbound-setup.ts';
import { waitFor } from '../support/wait.ts';

/**
 * docs/csat.md "By SMS": when an SMS conversation a person replied to closes and the workspace
 * asks, the question goes out as a text; the customer's next message, one digit 1-5 within 24
 * hours, is the rating (no AI reply, no reopening); anything else is a message as usual and ends
 * the wait. Provider and model are the local stand-ins.
 */
let app: InboundApp;
beforeAll(async () => {
  app = await startInbound();
  const r = await app.t.request({
    method: 'PUT',
    url: `/api/workspaces/${app.w.ws}/inbox-settings`,
    headers: app.w.owner.headers,
    payload: { csat: { enabled: true, question: 'How did we do?' } },
  });
  expect(r.statusCode, r.body).toBe(200);
});
afterAll(async () => {
  setClockOffset(0);
  await stopInbound(app);
});

const { sentTo, conversationsOf, messagesIn, done } = inboundReaders(() => app);

const call = (method: string, path: string, payload?: Record<string, unknown>) =>
  app.t.request({
    method: method as 'POST',
    url: `/api/inbox/conversations${path}`,
    headers: app.w.member.headers,
    ...(payload ? { payload } : {}),
  });

/** A customer's SMS conversation that a person answered and closed; the question sent. */
async function closedByPerson() {
  const { t, provider, llm, w } = app;
  const line = await smsLine(t, provider, w.owner, w.ws);
  const from = customer();
  llm.script([{ text: 'Hello from the AI.' }]);
  await inbound(t, line, from, 'hello');
  await waitFor(() => sentTo(from).length === 1, 15_000, 'the AI reply');
  const [c] = await conversationsOf(line.assistantId);
  expect((await call('POST', `/${c!.id}/handoff`)).statusCode).toBe(200);
  expect((await call('POST', `/${c!.id}/messages`, { content: 'Sam here, sorted.' })).statusCode).toBe(201);
  await waitFor(() => sentTo(from).length === 2, 15_000, 'the person reply');
  expect((await call('POST', `/${c!.id}/close`)).statusCode).toBe(200);
  await waitFor(() => sentTo(from).length === 3, 15_000, 'the question');
  return { line, from, id: c!.id };
}

describe('the survey by SMS', () => {
  it('asks once closed; a digit within 24 hours is the rating, with no AI reply and no reopening', async () => {
    const { line, from, id } = await closedByPerson();
    expect(sentTo(from)[2]!.body).toBe('How did we do? Reply with one number from 1 (bad) to 5 (great).');
    expect((await messagesIn(id)).at(-1)).toMatchObject({
      role: 'system',
      content: expect.stringContaining('How did we do?'),
    });
    const llmCalls = app.llm.requests.length;
    await inbound(app.t, line, from, ' 4 ');
    await done(line, 2);
    const c = (await call('GET', `/${id}`)).json().data;
    expect(c.status).toBe('closed');
    expect(c.csat).toEqual({ rating: 4, comment: null, ratedAt: expect.any(String) });
    expect(app.llm.requests.length).toBe(llmCalls);
    expect(sentTo(from)).toHaveLength(3);
    // The next digit is an ordinary message: rated once.
    app.llm.script([{ text: 'Anything else?' }]);
    await inbound(app.t, line, from, '5');
    await done(line, 3);
    expect((await call('GET', `/${id}`)).json().data.csat.rating).toBe(4);
  });

  it('a message that is not one digit is answered as usual and ends the wait', async () => {
    const { line, from, id } = await closedByPerson();
    app.llm.script([{ text: 'Happy to help again.' }, { text: 'Noted.' }]);
    await inbound(app.t, line, from, 'one more question');
    await waitFor(() => sentTo(from).length === 4, 15_000, 'the AI answers');
    await inbound(app.t, line, from, '3');
    await done(line, 3);
    expect((await call('GET', `/${id}`)).json().data.csat).toBeNull();
  });

  it('after 24 hours a digit is an ordinary message', async () => {
    const { line, from, id } = await closedByPerson();
    setClockOffset(24 * 3_600_000 + 60_000);
    try {
      app.llm.script([{ text: 'Hello again.' }]);
      await inbound(app.t, line, from, '5');
      await done(line, 2);
      expect((await call('GET', `/${id}`)).json().data.csat).toBeNull();
    } finally {
      setClockOffset(0);
    }
  });
});
