import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { Site } from '../support/site.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { chat, messagesOf } from './helpers.ts';

let llm: LlmServer;
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ AI_PROVIDER: 'openai', AI_BASE_URL: `${llm.url}/v1`, AI_MODEL: 'stand-in' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws, {
    instructions: 'You are Kettle Co support. Be brief.',
    temperature: 0.3,
    maxTokens: 256,
  });
  await addSource(t, w.owner, asst, {
    type: 'qa',
    pairs: [{ question: 'How long do refunds take?', answer: 'Refunds take 5 business days.' }],
  });
  await drainIngestion(t);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const used = async (workspaceId: string) =>
  (await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, workspaceId)))[0]
    ?.used ?? 0;

const lastRequest = () =>
  llm.requests.at(-1)?.body as Record<string, unknown> & {
    messages: Array<{ role: string; content: unknown }>;
  };

describe('chat through an OpenAI-compatible model', () => {
  it('streams its text and sends instructions, retrieved context, history, temperature and maxTokens', async () => {
    llm.script([{ text: 'Refunds take 5 business days [1].' }]);
    const first = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(first.status).toBe(200);
    expect(first.text).toBe('Refunds take 5 business days [1].');
    expect(first.events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
    const body = lastRequest();
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(256);
    expect(body.stream).toBe(true);
    const system = body.messages[0];
    expect(system?.role).toBe('system');
    expect(String(system?.content)).toContain('You are Kettle Co support.');
    expect(String(system?.content)).toContain('[1] How long do refunds take?');
    expect(String(system?.content)).toContain('Refunds take 5 business days.');

    const stored = await messagesOf(t, w.member, first.conversationId as string);
    expect(stored[1]?.citations).toHaveLength(1);

    llm.script([{ text: 'You are welcome.' }]);
    await chat(t, w.member, { assistantId: asst, conversationId: first.conversationId, content: 'thanks!' });
    const history = lastRequest()
      .messages.slice(1)
      .map((m) => [m.role, m.content]);
    expect(history).toEqual([
      ['user', 'How long do refunds take?'],
      ['assistant', 'Refunds take 5 business days [1].'],
      ['user', 'thanks!'],
    ]);
  });

  it('keeps the history within the token budget, newest first', async () => {
    const small = await createTestApp({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: `${llm.url}/v1`,
      CHAT_HISTORY_TOKENS: '100',
    });
    try {
      const sw = await createWorld(small);
      const a = await createAssistant(small, sw.owner, sw.ws);
      const long = 'word '.repeat(100).trim();
      const r1 = await chat(small, sw.owner, { assistantId: a, content: long });
      await chat(small, sw.owner, {
        assistantId: a,
        conversationId: r1.conversationId,
        content: 'short question',
      });
      const sent = lastRequest().messages.slice(1);
      expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'short question' });
      expect(sent.some((m) => m.content === long)).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('streams a tool round trip as tool-call and tool-result, and stores the steps', async () => {
    llm.script([
      { toolCall: { name: 'search_knowledge', args: { query: 'refund time' } } },
      { text: 'It takes 5 business days [1].' },
    ]);
    const r = await chat(t, w.member, { assistantId: asst, content: 'money back?' });
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('tool-call')).toBeLessThan(types.indexOf('tool-result'));
    expect(types.indexOf('tool-result')).toBeLessThan(types.indexOf('text-delta'));
    expect(types.at(-1)).toBe('finish');
    const call = r.events.find((e) => e.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'search_knowledge', args: { query: 'refund time' } });
    const result = r.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({
      type: 'tool-result',
      result: { passages: expect.arrayContaining([expect.anything()]) },
    });
    // the second model call saw the tool's result
    expect(JSON.stringify(lastRequest().messages)).toContain('Refunds take 5 business days.');
    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored[1]?.toolCalls[0]).toMatchObject({ toolName: 'search_knowledge' });
    expect(stored[1]?.citations[0]?.index).toBe(1);
  });

  it('grounds on connected projects and offers a spreadsheet lookup only once the assistant has one', async () => {
    // The assistant's first read carries its knowledge scope and whether it has realtime sources
    // (assistants.repo.ts): both must follow changes made between two chats.
    const site = new Site(true);
    await site.start();
    site.route('/stock.csv', { type: 'text/csv', body: 'sku,name,stock\nA1,Blue mug,12\nB2,Red plate,0\n' });
    const app = await createTestApp({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: `${llm.url}/v1`,
      AI_MODEL: 'stand-in',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    try {
      const world = await createWorld(app);
      const id = await createAssistant(app, world.owner, world.ws, { name: 'Stock' });
      const toolsSent = () =>
        ((lastRequest().tools ?? []) as { function: { name: string } }[]).map((x) => x.function.name);

      llm.script([{ text: 'I do not know.' }]);
      await chat(app, world.member, { assistantId: id, content: 'When is the warehouse closed?' });
      expect(toolsSent()).not.toContain('lookup_spreadsheet');
      expect(String(lastRequest().messages[0]?.content)).not.toContain('closed on Sundays');

      const pat = await personalToken(app, world.owner);
      const project = (
        await app.request({
          method: 'POST',
          url: `/api/workspaces/${world.ws}/projects`,
          headers: pat,
          payload: { name: 'Warehouse' },
        })
      ).json().data;
      await app.request({
        method: 'POST',
        url: `/api/workspaces/${world.ws}/projects/${project.id}/documents`,
        headers: pat,
        payload: { type: 'text', name: 'Hours', text: 'The warehouse is closed on Sundays.' },
      });
      await drainIngestion(app);
      const connected = await app.request({
        method: 'POST',
        url: `/api/workspaces/${world.ws}/assistants/${id}/projects`,
        headers: pat,
        payload: { projectId: project.id },
      });
      expect(connected.statusCode).toBeLessThan(300);
      await addSource(app, world.owner, id, {
        type: 'spreadsheet',
        name: 'Stock',
        url: site.url('/stock.csv'),
      });

      llm.script([
        { toolCall: { name: 'lookup_spreadsheet', args: { query: 'red plate' } } },
        { text: 'The red plate is out of stock; the warehouse is closed on Sundays [1].' },
      ]);
      const r = await chat(app, world.member, { assistantId: id, content: 'When is the warehouse closed?' });
      expect(r.status).toBe(200);
      const first = llm.requests.at(-2)?.body as {
        messages: { content: unknown }[];
        tools: { function: { name: string } }[];
      };
      expect(first.tools.map((x) => x.function.name)).toContain('lookup_spreadsheet');
      expect(String(first.messages[0]?.content)).toContain('The warehouse is closed on Sundays.');
      const result = r.events.find((e) => e.type === 'tool-result');
      expect(JSON.stringify(result)).toContain('Red plate');
    } finally {
      await app.close();
      await site.close();
    }
  });

  it('a failure before the first token: error event, nothing stored, the credit refunded', async () => {
    const before = await used(w.ws);
    llm.failBeforeFirstToken(500, 'boom');
    const r = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(r.status).toBe(200);
    expect(r.events).toEqual([
      { type: 'error', error: expect.any(String), code: 'internal_server_error:api' },
    ]);
    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored.map((m) => m.role)).toEqual(['user']);
    expect(await used(w.ws)).toBe(before);
  });

  it('a connection dropped before any response is tried once more, and the reply arrives', async () => {
    const before = await used(w.ws);
    const sent = llm.requests.length;
    llm.script([{ reset: true }, { text: 'Refunds take 5 business days.' }]);
    const r = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(r.text).toBe('Refunds take 5 business days.');
    expect(r.events.at(-1)).toMatchObject({ type: 'finish' });
    expect(llm.requests.length).toBe(sent + 2);
    expect(await used(w.ws)).toBe(before + 1);
  });

  it('dropped twice: an error event, nothing stored, the credit refunded (only one retry)', async () => {
    const before = await used(w.ws);
    const sent = llm.requests.length;
    llm.script([{ reset: true }, { reset: true }]);
    const r = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(r.events).toEqual([
      { type: 'error', error: expect.any(String), code: 'internal_server_error:api' },
    ]);
    expect(llm.requests.length).toBe(sent + 2);
    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored.map((m) => m.role)).toEqual(['user']);
    expect(await used(w.ws)).toBe(before);
  });

  it('a 500 is not retried: one request, an error event', async () => {
    const sent = llm.requests.length;
    llm.failBeforeFirstToken(500, 'boom');
    const r = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(r.events.at(-1)).toMatchObject({ type: 'error' });
    expect(llm.requests.length).toBe(sent + 1);
  });

  it('a failure after the first token: the partial answer is stored, then an error event; the credit stays spent', async () => {
    const before = await used(w.ws);
    llm.failAfterFirstToken('Refunds ta', { drop: true });
    const r = await chat(t, w.member, { assistantId: asst, content: 'How long do refunds take?' });
    expect(r.text).toBe('Refunds ta');
    expect(r.events.at(-1)).toMatchObject({ type: 'error', code: 'internal_server_error:api' });
    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored[1]).toMatchObject({ role: 'assistant', content: 'Refunds ta', status: 'partial' });
    expect(await used(w.ws)).toBe(before + 1);
  });

  it('a client that disconnects aborts the model call and what was generated is stored', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    llm.stall('Refunds');
    const conversationId = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/chat',
          headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: w.member.cookie },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('text-delta')) {
              req.destroy();
              resolve(res.headers['x-conversation-id'] as string);
            }
          });
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify({ assistantId: asst, content: 'How long do refunds take?' }));
      setTimeout(() => reject(new Error('no text-delta')), 5000);
    });
    const reply = () =>
      t.ctx.db
        .select()
        .from(messages)
        .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'assistant')));
    await waitFor(async () => (await reply()).length > 0, 5000, 'the partial reply stored');
    const stored = await reply();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ content: 'Refunds', status: 'partial' });
  });
});

describe('a stalled model', () => {
  it('sends keep-alive comments while waiting and ends with an error after AI_TIMEOUT_MS', async () => {
    const slow = await createTestApp({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: `${llm.url}/v1`,
      AI_TIMEOUT_MS: '600',
      CHAT_KEEPALIVE_MS: '100',
    });
    try {
      const sw = await createWorld(slow);
      const a = await createAssistant(slow, sw.owner, sw.ws);
      llm.stall();
      const r = await chat(slow, sw.owner, { assistantId: a, content: 'hello?' });
      expect(r.res.body).toContain(': keep-alive\n\n');
      expect(r.events).toEqual([
        { type: 'error', error: expect.any(String), code: 'internal_server_error:api' },
      ]);
    } finally {
      await slow.close();
    }
  });
});

describe('chat through the Anthropic protocol', () => {
  it('streams text from the Messages API', async () => {
    const anthropic = await createTestApp({
      AI_PROVIDER: 'anthropic',
      AI_BASE_URL: `${llm.url}/v1`,
      AI_API_KEY: 'sk-ant-test',
    });
    try {
      const sw = await createWorld(anthropic);
      const a = await createAssistant(anthropic, sw.owner, sw.ws, { maxTokens: 300 });
      llm.script([{ text: 'Hello from Claude.' }]);
      const r = await chat(anthropic, sw.owner, { assistantId: a, content: 'hi' });
      expect(r.text).toBe('Hello from Claude.');
      expect(r.events.at(-1)).toMatchObject({ type: 'finish', usage: { promptTokens: expect.any(Number) } });
      expect(llm.requests.at(-1)).toMatchObject({ protocol: 'anthropic', body: { max_tokens: 300 } });
    } finally {
      await anthropic.close();
    }
  });
});
