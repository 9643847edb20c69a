import { type Agent, request } from 'node:http';

/**
 * `POST /api/chat` (or anything answering with the stream events of docs/chat.md) over a real
 * socket, for tests that need several server processes and for bench/chat.ts. Times are in ms
 * from the request's start: `ttfe` to the first `data:` line, `finish` to the `finish` event
 * (0 when none came).
 */
export type ChatResponse = { status: number; body: string; ttfe: number; finish: number };

export function postChat(
  url: string,
  opts: { headers: Record<string, string>; body: string; agent?: Agent },
): Promise<ChatResponse> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfe = 0;
    let finish = 0;
    let body = '';
    const req = request(url, {
      method: 'POST',
      ...(opts.agent ? { agent: opts.agent } : {}),
      headers: {
        ...opts.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(opts.body),
      },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (!ttfe && body.includes('data: ')) ttfe = performance.now() - t0;
        // JSON.stringify keeps `type` first: the engine and the floor both build events that way.
        if (!finish && body.includes('data: {"type":"finish"')) finish = performance.now() - t0;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ttfe, finish }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
