import { eq } from 'drizzle-orm';
import { conversations, messages, smsInbound } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { type Line, smsApp } from './helpers.ts';

/**
 * What the inbound SMS test files share (inbound.test.ts, inbound-no-reply.test.ts): the app with
 * the provider and the LLM stand-ins, the inbound and send jobs running, and readers of what was
 * stored and sent.
 */
export type InboundApp = { t: TestApp; provider: SmsProvider; llm: LlmServer; w: World };

export async function startInbound(env: Record<string, string> = {}): Promise<InboundApp> {
  const llm = await startLlmServer({ instant: true });
  const { t, provider } = await smsApp({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
    ...env,
  });
  const w = await createWorld(t);
  t.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50, 'sms-send': 50 });
  return { t, provider, llm, w };
}

export async function stopInbound(a: InboundApp) {
  await a.t.close();
  await a.provider.close();
  await a.llm.close();
}

export const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

let phoneSeq = 0;
/** A fresh customer number per call (per process, so parallel files do not collide). */
export const customer = () =>
  `+1444${String(process.pid % 1000).padStart(3, '0')}${String(++phoneSeq).padStart(4, '0')}`;

/** Readers over the app that `get` returns once the suite has started. */
export function inboundReaders(get: () => InboundApp) {
  const inboundRows = (line: Line) =>
    get().t.ctx.db.select().from(smsInbound).where(eq(smsInbound.assistantId, line.assistantId));
  return {
    sentTo: (to: string) => get().provider.sent.filter((m) => m.to === to),
    conversationsOf: (assistantId: string) =>
      get().t.ctx.db.select().from(conversations).where(eq(conversations.assistantId, assistantId)),
    messagesIn: (conversationId: string) =>
      get()
        .t.ctx.db.select()
        .from(messages)
        .where(eq(messages.conversationId, conversationId))
        .orderBy(messages.createdAt),
    inboundRows,
    done: (line: Line, count: number) =>
      waitFor(
        async () => (await inboundRows(line)).filter((r) => r.state === 'done').length >= count,
        15_000,
        `${count} answered`,
      ),
  };
}
