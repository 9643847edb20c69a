import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import { assertLiteralAllowed, type GuardOptions, guardedLookup } from './guard.ts';

/**
 * Parley's one outbound HTTP client: every call out of the process (webhook deliveries, knowledge
 * fetches, model and embeddings providers) opens its connection here. The policy says whether
 * the SSRF guard applies (docs/webhooks.md, "Addresses Parley will not call"): a customer's URL is
 * guarded (the host literal checked before connecting, every name's addresses checked when each
 * connection is made, which defeats DNS rebinding); the operator's own endpoints (AI_BASE_URL,
 * EMBEDDINGS_BASE_URL) are reached with `allowPrivateNetworks`, as a local model server needs.
 *
 * The callers (http.ts, fetch.ts, web-fetch.ts) add what their use needs on top: time limits,
 * size limits, redirects, a WHATWG `fetch` for the AI SDK.
 */
export type OutboundPolicy = GuardOptions;

const agents = new Map<string, HttpAgent>();

/**
 * One keep-alive agent per protocol and policy. Idle sockets are kept (a new one costs a TLS
 * handshake), reused newest first, and share one TLS context (building one per connection loads
 * the CA store each time). The CA set is Node's plus NODE_EXTRA_CA_CERTS (how tests trust their
 * local receivers' self-signed CA).
 */
function agentFor(protocol: string, policy: OutboundPolicy): HttpAgent {
  const key = `${protocol}${policy.allowPrivateNetworks}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      maxSockets: 256,
      maxFreeSockets: 256,
      scheduling: 'lifo' as const,
      ...(policy.allowPrivateNetworks ? {} : { lookup: guardedLookup as never }),
    };
    agent =
      protocol === 'https:'
        ? new HttpsAgent({ ...options, secureContext: createSecureContext() })
        : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

export type SendOptions = { method: string; headers?: OutgoingHttpHeaders; timeoutMs?: number };

/**
 * Opens one request to `url` under `policy` (no redirects followed: that is the caller's
 * choice). Throws OutboundRefused before connecting when the URL is not http(s), carries
 * credentials, or names a refused address literally. The caller writes the body and ends it.
 */
export function send(url: URL, policy: OutboundPolicy, opts: SendOptions): ClientRequest {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Only http(s) URLs are fetched: ${url.protocol}`);
  }
  assertLiteralAllowed(url, policy);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return request(url, {
    method: opts.method,
    agent: agentFor(url.protocol, policy),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.timeoutMs === undefined ? {} : { timeout: opts.timeoutMs }),
  });
}

/** Closes the idle keep-alive sockets (shutdown, tests); requests in flight finish on theirs. */
export function closeOutboundAgents(): void {
  for (const agent of agents.values()) {
    for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
  }
}
