import { OutboundRefused } from './guard.ts';

/**
 * What a user is told when a request Parley made on their behalf failed: one of a few reasons
 * they can act on, never the socket's own words (`connect ECONNREFUSED 10.1.2.3:443` tells a
 * caller what answers on which address inside the network). The raw error goes to the server log.
 */
export type OutboundReason =
  | 'Name not found'
  | 'Not a public address'
  | 'Could not connect'
  | 'Timed out'
  | 'TLS failed'
  | 'Too many redirects'
  | 'The answer was too large';

/** An outbound request that failed, with its reason as the message and the raw error as `cause`. */
export class OutboundError extends Error {
  readonly reason: OutboundReason;
  constructor(reason: OutboundReason, cause: unknown) {
    super(reason, { cause });
    this.name = 'OutboundError';
    this.reason = reason;
  }
}

const TLS =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO)/;

/** The reason for any error an outbound request ended with. */
export function outboundReason(err: unknown): OutboundReason {
  if (err instanceof OutboundError) return err.reason;
  const e = (err ?? {}) as { code?: string; message?: string; cause?: unknown };
  const code = e.code ?? '';
  const message = e.message ?? '';
  if (err instanceof OutboundRefused || code === 'EPARLEYREFUSED') {
    return /redirect/i.test(message) ? 'Too many redirects' : 'Not a public address';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') return 'Name not found';
  if (
    code === 'ETIMEDOUT' ||
    code === 'ESOCKETTIMEDOUT' ||
    /timed? ?out/i.test(message) ||
    code.includes('TIMEOUT')
  ) {
    return 'Timed out';
  }
  if (TLS.test(code)) return 'TLS failed';
  if (code === 'EOUTBOUNDTOOLARGE') return 'The answer was too large';
  if (e.cause && e.cause !== err) return outboundReason(e.cause);
  return 'Could not connect';
}

/** `HTTP status N`, the other thing a user can act on. */
export const httpStatusReason = (status: number) => `HTTP status ${status}`;
