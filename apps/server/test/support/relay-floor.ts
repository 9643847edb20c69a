import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of bench/chat.ts (docs/performance.md "Chat"): a bare node:http server that does only what any
 * chat server must do with a streaming model. On any POST `{content}` it makes one streamed Chat
 * Completions request to `modelBaseUrl` (the stand-in of llm-server.ts), with a system prompt of
 * `systemPrompt`, and relays the text as the chat's stream events (docs/chat.md): `text-delta` per piece,
 * then `finish` with the usage. No auth, no database, no retrieval: the lower bound for the same
 * model stream.
 */
export async function startRelayFloor(modelBaseUrl: string, systemPrompt: string) {
  // Idle sockets close after 2 s, before the stand-in's 5 s keep-alive timeout (Node's default):
  // otherwise a request can go out on a socket the server is closing (undici, in the app, reads
  // the Keep-Alive hint and does the same).
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, timeout: 2_000 });
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      const { content } = JSON.parse(raw) as { content: string };
      const body = JSON.stringify({
        model: 'stand-in',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: systemPrompt },
          { role: 'user', content },
        ],
      });
      const up = request(`${modelBaseUrl}/chat/completions`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      up.on('response', (upRes) => {
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
        });
        res.flushHeaders();
        const usage = { promptTokens: 0, completionTokens: 0 };
        let buf = '';
        upRes.setEncoding('utf8');
        upRes.on('data', (chunk: string) => {
          buf += chunk;
          for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
            const frame = buf.slice(0, i).trim();
            buf = buf.slice(i + 2);
            if (!frame.startsWith('data: ') || frame === 'data: [DONE]') continue;
            const m = JSON.parse(frame.slice(6)) as {
              choices: { delta?: { content?: string } }[];
              usage?: { prompt_tokens: number; completion_tokens: number };
            };
            const text = m.choices[0]?.delta?.content;
            if (text) res.write(`data: ${JSON.stringify({ type: 'text-delta', textDelta: text })}\n\n`);
            if (m.usage) {
              usage.promptTokens = m.usage.prompt_tokens;
              usage.completionTokens = m.usage.completion_tokens;
            }
          }
        });
        upRes.on('end', () =>
          res.end(`data: ${JSON.stringify({ type: 'finish', messageId: null, usage })}\n\n`),
        );
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
