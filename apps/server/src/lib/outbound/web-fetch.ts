import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { type OutboundPolicy, send } from './client.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NO_BODY = new Set([101, 103, 204, 205, 304]);
const MAX_REDIRECTS = 20;

type Init = RequestInit & { redirect?: RequestRedirect };

/**
 * A WHATWG `fetch` over the one client (client.ts), for libraries that take one (the AI SDK's
 * providers, the embeddings client): their requests share its agents and policy. It covers what
 * they use: string, URL or Request input; a string, bytes or stream body; an AbortSignal; redirects
 * (followed unless `redirect` says otherwise); gzip, deflate and br bodies. A connection failure
 * rejects with TypeError('fetch failed', { cause }) as Node's own fetch does, so callers that look
 * at `cause.code` (remote.ts's retry of dropped connections) see the same errors.
 */
export function createFetch(policy: OutboundPolicy): typeof fetch {
  return async (input, init?: Init) => {
    const request = input instanceof Request ? input : undefined;
    let url = new URL(request ? request.url : String(input));
    let method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = headersOf(init?.headers ?? request?.headers);
    let body = await bodyOf(init && 'body' in init ? init.body : request?.body);
    const signal = init?.signal ?? request?.signal ?? undefined;
    const redirect = init?.redirect ?? request?.redirect ?? 'follow';
    for (let hop = 0; ; hop++) {
      signal?.throwIfAborted();
      const res = await exchange(url, policy, method, headers, body, signal);
      const location = res.headers.location;
      if (!REDIRECTS.has(res.statusCode ?? 0) || !location || redirect === 'manual') {
        return toResponse(res, method, signal);
      }
      res.resume();
      if (redirect === 'error' || hop >= MAX_REDIRECTS) {
        throw new TypeError('fetch failed', { cause: new Error(`Redirect refused (${redirect})`) });
      }
      url = new URL(location, url);
      // As fetch does: 303, and 301/302 after a POST, become a GET without a body.
      if (res.statusCode === 303 || (method === 'POST' && res.statusCode !== 307 && res.statusCode !== 308)) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        delete headers['content-length'];
        delete headers['content-type'];
      }
    }
  };
}

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers || Array.isArray(h)) return Object.fromEntries(new Headers(h));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

async function bodyOf(b: BodyInit | null | undefined): Promise<Buffer | string | undefined> {
  if (b === null || b === undefined) return undefined;
  if (typeof b === 'string') return b;
  if (b instanceof Uint8Array) return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (b instanceof ArrayBuffer) return Buffer.from(b);
  return Buffer.from(await new Response(b).arrayBuffer());
}

function exchange(
  url: URL,
  policy: OutboundPolicy,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const sent: OutgoingHttpHeaders = { ...headers };
    if (body !== undefined) sent['content-length'] = Buffer.byteLength(body);
    let req: ReturnType<typeof send>;
    try {
      req = send(url, policy, { method, headers: sent });
    } catch (err) {
      reject(new TypeError('fetch failed', { cause: err }));
      return;
    }
    const onAbort = () => req.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      signal?.removeEventListener('abort', onAbort); // the body's own listener takes over
      resolve(res);
    });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
    });
    req.end(body);
  });
}

function toResponse(res: IncomingMessage, method: string, signal: AbortSignal | undefined): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (method === 'HEAD' || NO_BODY.has(status)) {
    res.resume();
    return new Response(null, init);
  }
  let stream: Readable = res;
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const decode =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decode) {
    stream = res.pipe(decode);
    res.once('error', (err) => decode.destroy(err));
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  // An abort after the head ends the body with the signal's reason, as fetch does.
  if (signal) {
    const onAbort = () => {
      stream.destroy(signal.reason);
      res.destroy(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    stream.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, init);
}

/**
 * The fetch for the operator's own endpoints (AI_BASE_URL, EMBEDDINGS_BASE_URL): no SSRF guard,
 * since a model server on localhost or the private network is the common case.
 */
export const trustedFetch = createFetch({ allowPrivateNetworks: true });
