import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistants, conversations } from '../../src/db/schema/index.ts';
import { features } from '../../src/features/index.ts';
import { answerInbound } from '../../src/features/sms/sms.pipeline.ts';
import { insertInbound } from '../../src/features/sms/sms.repo.ts';
import { smsRoutes } from '../../src/features/sms/sms.routes.ts';
import { createFormA } from '../../src/features/sms/sms.service.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { newAccountSid, newAuthToken, type SmsProvider, startSmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';
import { newMessageSid, newNumber } from './helpers.ts';

/**
 * docs/architecture.md "State": an agent's reply to an SMS conversation goes out by SMS from an
 * app that never registered the SMS routes (a process serving only some features, app.ts
 * `features`): the SMS channel's adapter comes with the context, not with the routes. No app of
 * this test file registers them, so no earlier registration can stand in.
 */
let t: TestApp;
let provider: SmsProvider;
let llm: LlmServer;
let w: World;
beforeAll(async () => {
  llm = await startLlmServer({ instant: true });
  provider = await startSmsProvider();
  t = await createTestApp(
    {
      SMS_PROVIDER_API_BASE: provider.url,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      AI_PROVIDER: 'openai',
      AI_BASE_URL: `${llm.url}/v1`,
      AI_MODEL: 'stand-in',
    },
    { features: features.filter((f) => f !== smsRoutes) },
  );
  w = await createWorld(t);
  t.startJobs(['sms-send'], { 'sms-send': 50 });
});
afterAll(async () => {
  await t.close();
  await provider.close();
  await llm.close();
});

describe('an agent reply on an SMS conversation, in an app without the SMS routes', () => {
  it('POST /api/v1/messages reaches the SMS provider', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes('/sms'))).toEqual([]);

    // The SMS line and a customer's message, through the services the SMS routes would call.
    const assistantId = await createAssistant(t, w.owner, w.ws);
    const [assistant] = await t.ctx.db.select().from(assistants).where(eq(assistants.id, assistantId));
    const line = { accountSid: newAccountSid(), token: newAuthToken(), number: newNumber() };
    provider.addAccount(line.accountSid, line.token, { [line.number]: {} });
    await createFormA(t.ctx, assistant!, {
      providerAccountSid: line.accountSid,
      providerAuthToken: line.token,
      providerPhoneNumber: line.number,
    });
    const customer = newNumber();
    const inboundId = await insertInbound(
      t.ctx.db,
      {
        id: newId('smsi'),
        workspaceId: w.ws,
        assistantId,
        providerSid: newMessageSid(),
        fromNumber: customer,
        toNumber: line.number,
        body: 'Where is my order?',
        publicBase: 'http://parley.test',
        receivedAt: new Date(),
      },
      false,
    );
    await answerInbound(t.ctx, inboundId!);
    const [conversation] = await t.ctx.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.assistantId, assistantId), eq(conversations.channel, 'sms')));
    expect(conversation).toBeDefined();

    const content = 'Sam from support: your order left this morning.';
    const key = await insertApiKey(t, w.ws, ['chat:write']);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      headers: key,
      payload: { conversationId: conversation!.id, content },
    });
    expect(res.statusCode, res.body).toBe(201);
    await waitFor(
      () => provider.sent.some((m) => m.to === customer && m.body === content),
      15_000,
      'the agent reply at the provider',
    );
    expect(provider.sent.find((m) => m.body === content)).toMatchObject({
      accountSid: line.accountSid,
      from: line.number,
    });
  });
});
