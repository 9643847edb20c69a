import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit, startWebhookWorld } from '../support/webhooks.ts';
import type { World } from '../support/world.ts';

/**
 * The signing key of a delivery (src/features/webhooks/signing.ts), as a receiver sees it: only a
 * secret that is entirely `whsec_` + base64 is decoded; one that merely contains that shape is
 * used as its UTF-8 bytes, like any customer-chosen secret (docs/webhooks.md).
 */
let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
beforeAll(async () => {
  ({ t, w, rx, stop } = await startWebhookWorld());
});
afterAll(() => stop());

/** Delivers one event to a new hook with `secret`; returns what the receiver got. */
async function deliverWith(path: string, secret: string) {
  const url = rx.on(path, () => ({ status: 200 }));
  await createHookA(t, w.ws, w.owner.headers, { url, events: ['*'], secret });
  await emit(t, w.ws, 'contact.created', { id: 'ct_signing' });
  await waitFor(() => rx.hits(path).length === 1, 5000, 'delivery');
  return rx.hits(path)[0]!;
}

/** Verifies with the Standard Webhooks key made of the secret's UTF-8 bytes (throws if not). */
const verifyAsUtf8 = (secret: string, hit: { body: string; headers: Record<string, string> }) =>
  new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`).verify(hit.body, hit.headers);

describe('webhook signing key', () => {
  it('a secret with text before its whsec_ part is keyed by its UTF-8 bytes', async () => {
    const secret = 'my-whsec_QUJDREVGR0hJSktM';
    const hit = await deliverWith('/prefixed', secret);
    expect(() => verifyAsUtf8(secret, hit)).not.toThrow();
    expect(hit.headers['x-parley-signature']).toBe(
      createHmac('sha256', secret).update(hit.body).digest('hex'),
    );
  });

  it('a secret with text after its base64 part is keyed by its UTF-8 bytes', async () => {
    const secret = 'whsec_QUJDREVGR0hJSktM-tail';
    const hit = await deliverWith('/suffixed', secret);
    expect(() => verifyAsUtf8(secret, hit)).not.toThrow();
  });

  it('a whole whsec_ secret is keyed by its base64 part, with JSON and agent headers', async () => {
    const secret = 'whsec_QUJDREVGR0hJSktMTU5PUA==';
    const hit = await deliverWith('/whole', secret);
    expect(() => new Webhook(secret).verify(hit.body, hit.headers)).not.toThrow();
    expect(() => verifyAsUtf8(secret, hit)).toThrow();
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toBe('Parley-Webhooks/1.0');
  });
});
