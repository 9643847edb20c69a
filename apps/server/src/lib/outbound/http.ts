import { send } from './client.ts';
import { type GuardOptions, OutboundRefused } from './guard.ts';

export { closeOutboundAgents } from './client.ts';

export type PostResult = {
  /** HTTP status of the receiver; undefined when no response came (time-out, refused, network). */
  statusCode: number | undefined;
  durationMs: number;
  error: string | undefined;
};

/**
 * POSTs `body` to an https URL on a customer's behalf (webhook deliveries) through the one
 * client (client.ts): redirects are never followed (a 3xx is just a non-2xx answer), the whole
 * exchange is bounded by `timeoutMs`, the response body is read and dropped. Never throws.
 */
export function postOutbound(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: GuardOptions & { timeoutMs: number },
): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | undefined, error: string | undefined): PostResult => ({
    statusCode,
    error,
    durationMs: Math.max(0, Math.round(performance.now() - started)),
  });
  return new Promise((resolve) => {
    let req: ReturnType<typeof send>;
    try {
      const url = new URL(rawUrl);
      if (url.protocol !== 'https:') throw new OutboundRefused('Only https:// URLs are delivered to');
      req = send(url, opts, {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      });
    } catch (err) {
      resolve(done(undefined, (err as Error).message));
      return;
    }
    let settled = false;
    const finish = (statusCode: number | undefined, error: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(statusCode, error));
    };
    const timer = setTimeout(() => {
      finish(undefined, `Timed out after ${opts.timeoutMs} ms`);
      req.destroy();
    }, opts.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode;
      res.on('data', () => undefined);
      res.on('end', () => finish(status, undefined));
      res.on('error', (err) => finish(status, err.message));
    });
    req.on('error', (err) => finish(undefined, err.message));
    req.end(body);
  });
}
