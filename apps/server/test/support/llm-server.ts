/**
 * A local stand-in for a remote model (docs/architecture.md "Stack": local stand-ins) that speaks the real
 * wire protocols, so tests and benchmarks run the AI SDK providers unchanged:
 * - OpenAI Chat Completions: `POST …/chat/completions`, JSON or `stream: true` SSE chunks
 *   (`choices[0].delta.content` / `delta.tool_calls`, a usage chunk when
 *   `stream_options.include_usage`, then `data: [DONE]`).
 * - Anthropic Messages: `POST …/messages`, JSON or SSE events message_start,
 *   content_block_start/delta/stop (text_delta, input_json_delta), message_delta, message_stop.
 *
 * Usage:
 *   const llm = await startLlmServer();        // { instant: true } for benchmarks: no delay between pieces
 *   AI_BASE_URL = `${llm.url}/v1`              // either protocol
 *   llm.script([{ text: 'Hello there' }]);     // queue replies; each request takes the next one
 *   llm.script([{ toolCall: { name: 'search_knowledge', args: { query: 'x' } } }, { text: 'Found it' }]);
 *   llm.failBeforeFirstToken(500);             // next request: HTTP error, no body stream
 *   llm.failAfterFirstToken('Hel');            // next request: streams 'Hel', then an in-protocol error event
 *   llm.failAfterFirstToken('Hel', { drop: true }); // … or cuts the connection instead
 *   llm.stall('Hel');                          // next request: headers (and 'Hel'), then silence until the client aborts
 *   llm.requests                               // every request: protocol, path, headers, parsed body
 *   await llm.waitForRequests(2);              // resolves once that many requests have arrived
 *   await llm.close();                         // destroys open sockets, including stalled ones
 * With nothing queued a request is answered with DEFAULT_TEXT. A text turn may also carry tool
 * calls (`toolCalls: [...]`) and fixed `usage`; otherwise usage is estimated at ~4 chars a token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEFAULT_TEXT = 'Hello from the stand-in model.';

export type ToolCall = { name: string; args: Record<string, unknown> };
export type Usage = { input: number; output: number };
export type Turn =
  | { text?: string; toolCall?: ToolCall; toolCalls?: ToolCall[]; usage?: Usage }
  | { fail: number; message?: string }
  | { failAfter: string; drop?: boolean }
  | { stall: true; first?: string }
  | { reset: true };
export type Protocol = 'openai' | 'anthropic';
export type RecordedRequest = {
  protocol: Protocol;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
};

export type LlmServer = {
  url: string;
  requests: RecordedRequest[];
  script(turns: Turn[]): void;
  failBeforeFirstToken(status?: number, message?: string): void;
  failAfterFirstToken(text: string, options?: { drop?: boolean }): void;
  stall(first?: string): void;
  /** The next request's connection is closed before any response byte (a provider dropping it). */
  resetConnection(): void;
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
};

/** One SSE frame; `text` frames carry a piece of answer text (used to cut a reply short). */
type Frame = { data: string; text?: true };

export async function startLlmServer(options: { instant?: boolean } = {}): Promise<LlmServer> {
  const queue: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let ids = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const protocol = path.endsWith('/chat/completions')
      ? 'openai'
      : path.endsWith('/messages')
        ? 'anthropic'
        : null;
    if (req.method !== 'POST' || !protocol)
      return json(res, 404, errorBody('openai', `No route for ${path}`));
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    requests.push({ protocol, path, headers: req.headers, body });
    for (const w of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }

    const turn = queue.shift() ?? { text: DEFAULT_TEXT };
    if ('reset' in turn) return void req.socket.destroy();
    if ('fail' in turn)
      return json(res, turn.fail, errorBody(protocol, turn.message ?? `Scripted failure ${turn.fail}`));
    const model = typeof body.model === 'string' ? body.model : 'stand-in';
    const cut = 'failAfter' in turn || 'stall' in turn; // a reply that stops after its text
    const plain =
      'failAfter' in turn ? turn.failAfter : 'stall' in turn ? (turn.first ?? '') : (turn.text ?? '');
    const calls = cut ? [] : [...(turn.toolCall ? [turn.toolCall] : []), ...(turn.toolCalls ?? [])];
    const toolCalls = calls.map((c) => ({
      ...c,
      id: `${protocol === 'openai' ? 'call' : 'toolu'}_${++ids}`,
    }));
    const usage = ('usage' in turn && turn.usage) || {
      input: Math.ceil(raw.length / 4),
      output: Math.max(1, Math.ceil((plain.length + JSON.stringify(calls).length) / 4)),
    };
    const reply: Reply = { model, text: plain, toolCalls, usage };

    if (body.stream !== true) {
      if ('stall' in turn) return; // no answer until the client gives up or close() destroys the socket
      if ('failAfter' in turn) return void res.destroy();
      return json(res, 200, protocol === 'openai' ? openaiJson(reply) : anthropicJson(reply));
    }

    let frames = protocol === 'openai' ? openaiFrames(reply, body) : anthropicFrames(reply);
    let ending: 'complete' | 'error' | 'drop' | 'stall' = 'complete';
    if (cut) {
      // Keep everything up to the last piece of text, or just the opening frame when there is none.
      const lastText = frames.map((f) => f.text === true).lastIndexOf(true);
      frames = frames.slice(0, lastText >= 0 ? lastText + 1 : 1);
      ending = 'stall' in turn ? 'stall' : turn.drop ? 'drop' : 'error';
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).flushHeaders();
    for (const frame of frames) {
      if (res.destroyed) return;
      res.write(frame.data);
      if (!options.instant) await pause(2);
    }
    if (res.destroyed || ending === 'stall') return;
    if (ending === 'drop') res.destroy();
    else if (ending === 'error') res.end(errorFrame(protocol, 'Scripted failure after the first token'));
    else res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (turns) => void queue.push(...turns),
    failBeforeFirstToken: (status = 500, message) =>
      void queue.push({ fail: status, ...(message ? { message } : {}) }),
    failAfterFirstToken: (text, opts) => void queue.push({ failAfter: text, drop: opts?.drop ?? false }),
    stall: (first) => void queue.push({ stall: true, ...(first ? { first } : {}) }),
    resetConnection: () => void queue.push({ reset: true }),
    waitForRequests: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // stalled streams would otherwise keep the process alive
      }),
  };
}

type Reply = { model: string; text: string; toolCalls: (ToolCall & { id: string })[]; usage: Usage };

/** Small pieces (a word and its trailing space) so that streaming is visible to the client. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Tool arguments arrive in two halves, as real servers split them, to exercise reassembly. */
function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

function openaiFrames(r: Reply, body: Record<string, unknown>): Frame[] {
  const base = { id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: now(), model: r.model };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames: Frame[] = [{ data: chunk({ role: 'assistant', content: '' }) }];
  for (const p of pieces(r.text)) frames.push({ data: chunk({ content: p }), text: true });
  r.toolCalls.forEach((c, index) => {
    frames.push({
      data: chunk({
        tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
      }),
    });
    for (const a of halves(JSON.stringify(c.args)))
      frames.push({ data: chunk({ tool_calls: [{ index, function: { arguments: a } }] }) });
  });
  frames.push({ data: chunk({}, r.toolCalls.length ? 'tool_calls' : 'stop') });
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    frames.push({
      data: `data: ${JSON.stringify({ ...base, choices: [], usage: openaiUsage(r.usage) })}\n\n`,
    });
  }
  frames.push({ data: 'data: [DONE]\n\n' });
  return frames;
}

function openaiJson(r: Reply): object {
  const toolCalls = r.toolCalls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  return {
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: now(),
    model: r.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: r.text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: openaiUsage(r.usage),
  };
}

function openaiUsage(u: Usage): object {
  return { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output };
}

function anthropicFrames(r: Reply): Frame[] {
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const message = {
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    content: [],
    model: r.model,
    stop_reason: null,
    stop_sequence: null,
  };
  const frames: Frame[] = [
    {
      data: event('message_start', {
        message: { ...message, usage: { input_tokens: r.usage.input, output_tokens: 1 } },
      }),
    },
  ];
  let index = 0;
  if (r.text) {
    frames.push({ data: event('content_block_start', { index, content_block: { type: 'text', text: '' } }) });
    for (const p of pieces(r.text))
      frames.push({
        data: event('content_block_delta', { index, delta: { type: 'text_delta', text: p } }),
        text: true,
      });
    frames.push({ data: event('content_block_stop', { index }) });
    index++;
  }
  for (const c of r.toolCalls) {
    frames.push({
      data: event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
      }),
    });
    for (const a of halves(JSON.stringify(c.args))) {
      frames.push({
        data: event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: a } }),
      });
    }
    frames.push({ data: event('content_block_stop', { index }) });
    index++;
  }
  const stopReason = r.toolCalls.length ? 'tool_use' : 'end_turn';
  frames.push({
    data: event('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: r.usage.output },
    }),
  });
  frames.push({ data: event('message_stop', {}) });
  return frames;
}

function anthropicJson(r: Reply): object {
  return {
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [
      ...(r.text ? [{ type: 'text', text: r.text }] : []),
      ...r.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })),
    ],
    stop_reason: r.toolCalls.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: r.usage.input, output_tokens: r.usage.output },
  };
}

/** The error body each API sends with a non-2xx status. */
function errorBody(protocol: Protocol, message: string): object {
  return protocol === 'openai'
    ? { error: { message, type: 'server_error', param: null, code: null } }
    : { type: 'error', error: { type: 'api_error', message } };
}

/** The error each API sends inside an already started stream. */
function errorFrame(protocol: Protocol, message: string): string {
  return protocol === 'openai'
    ? `data: ${JSON.stringify(errorBody(protocol, message))}\n\n`
    : `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } })}\n\n`;
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
