import { send } from './client.ts';
import { type GuardOptions, OutboundRefused } from './guard.ts';
import { OutboundError, type OutboundReason, outboundReason } from './reasons.ts';

export { closeOutboundAgents } from './client.ts';

export type PostResult = {
  /** HTTP status of the receiver; undefined when no response came (time-out, refused, network). */
  statusCode: number | undefined;
  durationMs: number;
  /** Why no answer came, in words a user can act on (reasons.ts); undefined when one came. */
  error: OutboundReason | undefined;
  /** The raw error behind `error`, for the server log only. */
  cause?: unknown;
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
  const done = (statusCode: number | undefined, cause: unknown): PostResult => ({
    statusCode,
    error: cause === undefined ? undefined : outboundReason(cause),
    ...(cause === undefined ? {} : { cause }),
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
      resolve(done(undefined, err));
      return;
    }
    let settled = false;
    const finish = (statusCode: number | undefined, cause: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(statusCode, cause));
    };
    const timer = setTimeout(() => {
      finish(undefined, new OutboundError('Timed out', new Error(`Timed out after ${opts.timeoutMs} ms`)));
      req.destroy();
    }, opts.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode;
      res.on('data', () => undefined);
      res.on('end', () => finish(status, undefined));
      res.on('error', (err) => finish(status, err));
    });
    req.on('error', (err) => finish(undefined, err));
    req.end(body);
  });
}
