import {
  APICallError,
  generateText,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
  tool,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Config } from '../../src/config.ts';
import { createRemoteModel } from '../../src/providers/llm/remote.ts';
import { DEFAULT_TEXT, type LlmServer, type Protocol, startLlmServer } from '../support/llm-server.ts';

// The remote providers (docs/chat.md "Models") against the local stand-in (test/support/llm-server.ts),
// through the real AI SDK providers: these prove the stand-in speaks each protocol as the SDK expects, so the
// chat engine's tests can rely on it.

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(async () => {
  await llm.close();
});

function aiConfig(provider: Config['ai']['provider'], overrides: Partial<Config['ai']> = {}): Config['ai'] {
  return {
    provider,
    baseUrl: `${llm.url}/v1`,
    apiKey: 'test-key',
    // A model the Anthropic provider knows, so it does not warn about guessing its output limit.
    model: provider === 'anthropic' ? 'claude-haiku-4-5' : 'stand-in-model',
    timeoutMs: 10_000,
    historyTokens: 6000,
    keepAliveMs: 15_000,
    ...overrides,
  };
}

type Part = TextStreamPart<ToolSet>;

async function collect(stream: AsyncIterable<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function texts(parts: Part[]): string[] {
  return parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
}

function errorOf(parts: Part[]): unknown {
  return parts.find((p) => p.type === 'error')?.error;
}

/** One request's messages, whichever protocol carried them. */
function lastRequest(protocol: Protocol) {
  const request = llm.requests.at(-1);
  expect(request?.protocol).toBe(protocol);
  return request?.body ?? {};
}

describe('createRemoteModel', () => {
  it('refuses the offline provider, which is not remote', () => {
    expect(() => createRemoteModel(aiConfig('offline'))).toThrow(/offline responder/);
  });

  it('asks for a key for the providers’ own hosts but not for a local server', () => {
    expect(() => createRemoteModel(aiConfig('openai', { baseUrl: undefined, apiKey: undefined }))).toThrow(
      /AI_API_KEY/,
    );
    expect(() => createRemoteModel(aiConfig('anthropic', { baseUrl: undefined, apiKey: undefined }))).toThrow(
      /AI_API_KEY/,
    );
    expect(() => createRemoteModel(aiConfig('openai', { apiKey: undefined }))).not.toThrow();
  });

  it('uses the documented default model when AI_MODEL is unset', () => {
    const openai = createRemoteModel(aiConfig('openai', { model: undefined }));
    const anthropic = createRemoteModel(aiConfig('anthropic', { model: undefined }));
    expect(typeof openai === 'object' && openai.modelId).toBe('gpt-4o-mini');
    expect(typeof anthropic === 'object' && anthropic.modelId).toBe('claude-haiku-4-5');
  });
});

type Body = Record<string, unknown>;
type SentHeaders = Record<string, string | string[] | undefined>;
/** Where each protocol puts what the tests below check (the key, a tool's result, the system prompt). */
const WIRE = {
  openai: {
    key: (h: SentHeaders) => h.authorization,
    keyValue: 'Bearer test-key',
    toolResult: '"role":"tool"',
    system: (body: Body) => (body.messages as unknown[])[0],
    systemValue: { role: 'system', content: 'You are Parley.' },
    // Asked for, or the stream carries no usage to charge credits by.
    streamOptions: { include_usage: true },
  },
  anthropic: {
    key: (h: SentHeaders) => h['x-api-key'],
    keyValue: 'test-key',
    toolResult: '"type":"tool_result"',
    system: (body: Body) => body.system,
    systemValue: [{ type: 'text', text: 'You are Parley.' }],
    streamOptions: undefined,
  },
} as const;

describe.each(['openai', 'anthropic'] as const)('%s protocol against the stand-in', (protocol) => {
  const wire = WIRE[protocol];
  const model = () => createRemoteModel(aiConfig(protocol));
  const quiet = { onError: () => {}, maxRetries: 0 };

  it('streams text in pieces and sends the configured model and key', async () => {
    llm.script([{ text: 'Hello there, how can I help?' }]);
    const result = streamText({ model: model(), prompt: 'Hi', ...quiet });
    const pieces = texts(await collect(result.fullStream));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('Hello there, how can I help?');
    const body = lastRequest(protocol);
    expect(body.stream).toBe(true);
    expect(body.model).toBe(aiConfig(protocol).model);
    const headers = llm.requests.at(-1)?.headers ?? {};
    expect(wire.key(headers)).toBe(wire.keyValue);
  });

  it('answers with the default text when nothing is scripted', async () => {
    const result = streamText({ model: model(), prompt: 'Hi', ...quiet });
    expect(await result.text).toBe(DEFAULT_TEXT);
  });

  it('runs a tool call round trip and then answers', async () => {
    llm.script([
      { toolCall: { name: 'search_knowledge', args: { query: 'refund policy' } } },
      { text: 'Found it' },
    ]);
    const before = llm.requests.length;
    const result = streamText({
      model: model(),
      prompt: 'What is the refund policy?',
      tools: {
        search_knowledge: tool({
          description: 'Search the knowledge base',
          inputSchema: z.object({ query: z.string() }),
          execute: async ({ query }) => ({ passages: [`Refunds within 30 days (${query})`] }),
        }),
      },
      stopWhen: stepCountIs(3),
      ...quiet,
    });
    const parts = await collect(result.fullStream);
    const call = parts.find((p) => p.type === 'tool-call');
    const output = parts.find((p) => p.type === 'tool-result');
    expect(call?.type === 'tool-call' && call.toolName).toBe('search_knowledge');
    expect(call?.type === 'tool-call' && call.input).toEqual({ query: 'refund policy' });
    expect(output?.type === 'tool-result' && output.output).toEqual({
      passages: ['Refunds within 30 days (refund policy)'],
    });
    expect(texts(parts).join('')).toBe('Found it');
    expect(errorOf(parts)).toBeUndefined();

    // Turn 1 offered the tool; turn 2 carried its result back under the call's id.
    const [first, second] = llm.requests.slice(before).map((r) => r.body);
    expect(llm.requests.length - before).toBe(2);
    const offered = (first?.tools ?? []) as { name?: string; function?: { name: string } }[];
    const toolNames = offered.map((t) => t.function?.name ?? t.name);
    expect(toolNames).toEqual(['search_knowledge']);
    const callId = call?.type === 'tool-call' ? call.toolCallId : '';
    const sent = JSON.stringify(second?.messages);
    expect(sent).toContain(callId);
    expect(sent).toContain('Refunds within 30 days');
    expect(sent).toContain(wire.toolResult);
  });

  it('sends temperature, max tokens and the system prompt in the request body', async () => {
    const result = streamText({
      model: model(),
      system: 'You are Parley.',
      prompt: 'Hi',
      temperature: 0.3,
      maxOutputTokens: 321,
      ...quiet,
    });
    await result.text;
    const body = lastRequest(protocol);
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(321);
    expect(wire.system(body)).toEqual(wire.systemValue);
  });

  it('reports the usage the server streams', async () => {
    llm.script([{ text: 'Short answer.', usage: { input: 42, output: 7 } }]);
    const result = streamText({ model: model(), prompt: 'Hi', ...quiet });
    await result.text;
    const usage = await result.totalUsage;
    expect(usage.inputTokens).toBe(42);
    expect(usage.outputTokens).toBe(7);
    expect(lastRequest(protocol).stream_options).toEqual(wire.streamOptions);
  });

  it('surfaces a failure before the first token as an error with no text', async () => {
    llm.failBeforeFirstToken(500, 'the model is down');
    const parts = await collect(streamText({ model: model(), prompt: 'Hi', ...quiet }).fullStream);
    expect(texts(parts)).toEqual([]);
    const error = errorOf(parts);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(500);
    expect((error as APICallError).message).toContain('the model is down');
  });

  it('surfaces an error event after the first token as an error part after text', async () => {
    llm.failAfterFirstToken('Hel');
    const parts = await collect(streamText({ model: model(), prompt: 'Hi', ...quiet }).fullStream);
    expect(texts(parts).join('')).toBe('Hel');
    const errorAt = parts.findIndex((p) => p.type === 'error');
    expect(errorAt).toBeGreaterThan(parts.findIndex((p) => p.type === 'text-delta'));
    expect(JSON.stringify(errorOf(parts))).toContain('Scripted failure after the first token');
  });

  it('surfaces a connection cut after the first token as a thrown error after text', async () => {
    // Unlike an in-protocol error event, a cut connection rejects the iteration itself.
    llm.failAfterFirstToken('Hel', { drop: true });
    const parts: Part[] = [];
    let thrown: unknown;
    try {
      for await (const part of streamText({ model: model(), prompt: 'Hi', ...quiet }).fullStream)
        parts.push(part);
    } catch (error) {
      thrown = error;
    }
    expect(texts(parts).join('')).toBe('Hel');
    expect(APICallError.isInstance(thrown)).toBe(true);
  });

  it('ends a stall after the first piece with an AbortSignal', async () => {
    llm.stall('Hel');
    const controller = new AbortController();
    const result = streamText({ model: model(), prompt: 'Hi', abortSignal: controller.signal, ...quiet });
    const parts: Part[] = [];
    for await (const part of result.fullStream) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(texts(parts)).toEqual(['Hel']);
    expect(parts.some((p) => p.type === 'abort')).toBe(true);
  });

  it('ends a stall before any token with an AbortSignal', async () => {
    llm.stall();
    const before = llm.requests.length;
    const controller = new AbortController();
    const result = streamText({ model: model(), prompt: 'Hi', abortSignal: controller.signal, ...quiet });
    const parts = collect(result.fullStream);
    await llm.waitForRequests(before + 1);
    controller.abort();
    const done = await parts;
    expect(texts(done)).toEqual([]);
    expect(done.some((p) => p.type === 'abort')).toBe(true);
  });
});

describe('stand-in without streaming', () => {
  it.each(['openai', 'anthropic'] as const)('%s: answers a plain JSON request', async (protocol) => {
    llm.script([{ text: 'Plain answer', toolCall: { name: 'request_human', args: { reason: 'asked' } } }]);
    const model = createRemoteModel(aiConfig(protocol));
    const tools = { request_human: tool({ inputSchema: z.object({ reason: z.string() }) }) };
    const result = await generateText({ model, prompt: 'Hi', tools, maxRetries: 0 });
    expect(result.text).toBe('Plain answer');
    expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([
      ['request_human', { reason: 'asked' }],
    ]);
    expect(lastRequest(protocol).stream).not.toBe(true);
  });
});

describe('stand-in lifecycle', () => {
  it('closes while a stream is stalled', async () => {
    const own = await startLlmServer({ instant: true });
    own.stall('Hel');
    const model = createRemoteModel({ ...aiConfig('openai'), baseUrl: `${own.url}/v1` });
    const result = streamText({ model, prompt: 'Hi', onError: () => {}, maxRetries: 0 });
    const parts: Part[] = [];
    let thrown: unknown;
    try {
      for await (const part of result.fullStream) {
        parts.push(part);
        if (part.type === 'text-delta') await own.close();
      }
    } catch (error) {
      thrown = error;
    }
    expect(texts(parts)).toEqual(['Hel']);
    expect(APICallError.isInstance(thrown)).toBe(true);
  });
});
