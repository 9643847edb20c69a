import type { IncomingMessage } from 'node:http';
import { send } from './client.ts';
import { type GuardOptions, OutboundRefused } from './guard.ts';
import { OutboundError, outboundReason } from './reasons.ts';

export type FetchOptions = GuardOptions & {
  timeoutMs: number;
  /** Bodies beyond this are cut off and reported as an error. */
  maxBytes: number;
  headers?: Record<string, string>;
  /** Redirects followed, each hop checked again (default 5). */
  maxRedirects?: number;
};

export type FetchResult = { status: number; contentType: string; body: Buffer; finalUrl: string };

/**
 * GET on a customer's behalf (crawling, spreadsheets, stores) through the one client (client.ts),
 * guarded: every hop's address is checked at connect time, redirects are followed by hand and
 * re-checked, time and size are bounded.
 */
export async function fetchOutbound(rawUrl: string, opts: FetchOptions): Promise<FetchResult> {
  try {
    return await fetchHops(rawUrl, opts);
  } catch (err) {
    // The message says what a user can act on; the socket's own words stay in `cause` (reasons.ts).
    throw err instanceof OutboundError ? err : new OutboundError(outboundReason(err), err);
  }
}

async function fetchHops(rawUrl: string, opts: FetchOptions): Promise<FetchResult> {
  let url = new URL(rawUrl);
  const deadline = Date.now() + opts.timeoutMs;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused('Only http(s) URLs are fetched');
    if (url.username || url.password) throw new OutboundRefused('URLs with credentials are not fetched');
    const res = await once(url, opts, Math.max(1, deadline - Date.now()));
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.resume();
      if (hop >= (opts.maxRedirects ?? 5)) throw new OutboundError('Too many redirects', undefined);
      url = new URL(location, url);
      continue;
    }
    const body = await readBody(res, opts.maxBytes);
    return {
      status: res.statusCode ?? 0,
      contentType: String(res.headers['content-type'] ?? ''),
      body,
      finalUrl: url.toString(),
    };
  }
}

function once(url: URL, opts: FetchOptions, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof send>;
    try {
      req = send(url, opts, {
        method: 'GET',
        headers: { 'accept-encoding': 'identity', ...opts.headers },
        timeoutMs,
      });
    } catch (err) {
      reject(err);
      return;
    }
    const timer = setTimeout(() => req.destroy(new Error(`Timed out after ${opts.timeoutMs} ms`)), timeoutMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.on('timeout', () => req.destroy(new Error(`Timed out after ${opts.timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(
          new OutboundError('The answer was too large', new Error(`Response larger than ${maxBytes} bytes`)),
        );
        return;
      }
      parts.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(parts)));
    res.on('error', reject);
  });
}
