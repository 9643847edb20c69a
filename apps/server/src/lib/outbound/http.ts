import { Agent, request } from 'node:https';
import { assertLiteralAllowed, type GuardOptions, guardedLookup } from './guard.ts';

export type PostResult = {
  /** HTTP status of the receiver; undefined when no response came (time-out, refused, network). */
  statusCode: number | undefined;
  durationMs: number;
  error: string | undefined;
};

const agents = new Map<boolean, Agent>();

/**
 * One keep-alive agent per policy. The guarded agent resolves names through guardedLookup, so
 * the address is checked when each connection is made (decisions §9, DNS rebinding). The CA set
 * is Node's, plus NODE_EXTRA_CA_CERTS (how tests trust their local receiver's self-signed CA).
 */
function agentFor(opts: GuardOptions): Agent {
  let agent = agents.get(opts.allowPrivateNetworks);
  if (!agent) {
    agent = new Agent({
      keepAlive: true,
      maxSockets: 256,
      maxFreeSockets: 64,
      scheduling: 'lifo',
      ...(opts.allowPrivateNetworks ? {} : { lookup: guardedLookup as never }),
    });
    agents.set(opts.allowPrivateNetworks, agent);
  }
  return agent;
}

/**
 * POSTs `body` to an https URL on a customer's behalf: redirects are never followed (a 3xx is
 * just a non-2xx answer), the whole exchange is bounded by `timeoutMs`, the response body is
 * read and dropped (at most 64 KiB kept in flight).
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
    let url: URL;
    try {
      url = new URL(rawUrl);
      if (url.protocol !== 'https:') throw new Error('Only https:// URLs are delivered to');
      assertLiteralAllowed(url, opts);
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
    const req = request(url, {
      method: 'POST',
      agent: agentFor(opts),
      headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
    });
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

/** Closes idle keep-alive sockets (shutdown, tests). */
export function closeOutboundAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
