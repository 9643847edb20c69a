import { randomBytes } from 'node:crypto';
import { hmacSha256 } from '../../lib/crypto.ts';

/** New secrets are Standard Webhooks shaped: `whsec_` + base64 of 24 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks key: the base64 part of a `whsec_` secret; any other (customer-chosen)
 * secret is used as its UTF-8 bytes (docs/webhooks.md tells how to verify those).
 */
function standardKey(secret: string): Buffer {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  return m?.[1] ? Buffer.from(m[1], 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * Headers of one attempt (docs/webhooks.md "Verifying signatures"): X-Parley-Signature = lowercase hex
 * HMAC-SHA256 of the raw body keyed with the secret string; webhook-signature = `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` with the Standard Webhooks key.
 */
export function signatureHeaders(
  secret: string,
  msgId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const v1 = hmacSha256(standardKey(secret), `${msgId}.${timestamp}.${body}`).toString('base64');
  return {
    'content-type': 'application/json',
    'user-agent': 'Parley-Webhooks/1.0',
    'x-parley-signature': hmacSha256(secret, body).toString('hex'),
    'webhook-id': msgId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${v1}`,
  };
}
