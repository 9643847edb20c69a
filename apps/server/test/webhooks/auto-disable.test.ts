import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, webhookDeliveries, webhookFailures } from '../../src/db/schema/index.ts';
import { addDays, now } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit, startWebhookWorld, waitForQuiet } from '../support/webhooks.ts';
import type { World } from '../support/world.ts';

let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
beforeAll(async () => {
  // Schedule A with 0 s delays: each event makes three quick attempts.
  ({ t, w, rx, stop } = await startWebhookWorld({
    WEBHOOK_RETRY_DELAYS_A: '0,0',
    WEBHOOK_TIMEOUT_MS: '5000',
  }));
});
afterAll(() => stop());

const getHook = async (id: string) =>
  (
    await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/webhooks/${id}`,
      headers: w.owner.headers,
    })
  ).json().data;

const failuresSince = (webhookId: string, since: Date) =>
  t.ctx.db.$count(
    webhookFailures,
    and(eq(webhookFailures.webhookId, webhookId), gt(webhookFailures.at, since)),
  );

describe('auto-disable', () => {
  it('more than 50 consecutive failures disable the webhook, notify owners and admins, fail pending retries', async () => {
    let down = true;
    const url = rx.on('/broken', () => ({ status: down ? 500 : 200 }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.joined'] });
    for (let i = 0; i < 17; i++) await emit(t, w.ws, 'member.joined', { i }); // 17 × 3 = 51 attempts
    await waitFor(async () => (await getHook(hook.id)).active === false, 20_000, 'auto-disable');
    await waitFor(
      async () =>
        (
          await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))
        ).every((d) => d.status === 'failed'),
      5000,
      'all deliveries final',
    );
    // Attempts counted from the delivery records (a loaded machine may time out some before the
    // receiver sees them; those are failed attempts too).
    const rows0 = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    const attempts = rows0.reduce((n, d) => n + d.attempt, 0);
    expect(attempts).toBe(51);

    // In-app notification for the owner and the admin, not for a member.
    const rows = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'webhook.disabled'));
    expect(rows.map((r) => r.userId).sort()).toEqual([w.owner.id, w.admin.id].sort());
    const list = await t.request({ method: 'GET', url: '/api/notifications', headers: w.admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({ type: 'webhook.disabled', workspaceId: w.ws, readAt: null });
    expect(list.json().data[0].body).toContain(hook.id);
    const memberList = await t.request({
      method: 'GET',
      url: '/api/notifications',
      headers: w.member.headers,
    });
    expect(memberList.json().data).toHaveLength(0);

    // Email to both through the mail provider (file transport in DATA_DIR/mail).
    const dir = join(t.dataDir, 'mail');
    const mails = () => {
      try {
        return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
      } catch {
        return [];
      }
    };
    const mailed = (email: string) =>
      mails().some((m) => m.includes(email) && m.includes('A webhook was disabled'));
    await waitFor(() => mailed(w.owner.email) && mailed(w.admin.email), 5000, 'emails to owner and admin');
    expect(mailed(w.member.email)).toBe(false);

    // Inactive: nothing new.
    const before = rx.hits('/broken').length;
    await emit(t, w.ws, 'member.joined', { after: true });
    await waitForQuiet(t, w.ws);
    expect(rx.hits('/broken').length).toBe(before);

    // Re-activation resets the count: one more failure does not disable it again.
    const res = await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.ws}/webhooks/${hook.id}`,
      headers: w.owner.headers,
      payload: { active: true },
    });
    expect(res.statusCode).toBe(200);
    expect(
      await t.ctx.db.select().from(webhookFailures).where(eq(webhookFailures.webhookId, hook.id)),
    ).toHaveLength(0);
    await emit(t, w.ws, 'member.joined', { again: true });
    await waitFor(() => rx.hits('/broken').length === before + 3, 5000, 'three more attempts');
    // Each failed attempt is counted after it is recorded: three counted means all were judged.
    await waitFor(
      async () => (await failuresSince(hook.id, addDays(now(), -7))) === 3,
      5000,
      '3 failures counted',
    );
    expect((await getHook(hook.id)).active).toBe(true);
    down = false;
  });

  it('failures older than 7 days drop out of the streak; a success resets it', async () => {
    let status = 500;
    const url = rx.on('/old-failures', () => ({ status }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.left'] });
    const old = addDays(now(), -8);
    await t.ctx.db
      .insert(webhookFailures)
      .values(Array.from({ length: 60 }, () => ({ id: newId('dlv'), webhookId: hook.id, at: old })));
    await emit(t, w.ws, 'member.left', {});
    await waitFor(() => rx.hits('/old-failures').length === 3, 5000, 'attempts');
    await waitFor(
      async () => (await failuresSince(hook.id, addDays(now(), -7))) === 3,
      5000,
      '3 failures counted',
    );
    expect((await getHook(hook.id)).active).toBe(true);
    status = 200;
    await emit(t, w.ws, 'member.left', {});
    await waitFor(() => rx.hits('/old-failures').length === 4, 5000, 'success');
    await waitFor(
      async () =>
        (await t.ctx.db.select().from(webhookFailures).where(eq(webhookFailures.webhookId, hook.id)))
          .length === 0,
      5000,
      'streak reset',
    );
  });
});
