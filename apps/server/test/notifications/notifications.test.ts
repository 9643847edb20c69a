import { NOTICE_KINDS } from '@parley/contract/notifications';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/db/schema/index.ts';
import { reserveMany } from '../credits/helpers.ts';
import { drainIngestion, multipart } from '../knowledge/helpers.ts';
import { createAssistant, signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { type SmtpStandIn, startSmtpServer } from '../support/smtp-server.ts';
import { waitFor } from '../support/wait.ts';
import { addMember, createWorld, insertWorkspace, setUsed, type World } from '../support/world.ts';

/**
 * Notifications in the app and by email over SMTP (docs/notifications.md): the kinds raised by
 * real triggers, mail through a local SMTP server (smtp-server), per-user preferences.
 */

let t: TestApp;
let w: World;
let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Parley <no-reply@parley.test>' });
  w = await createWorld(t);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

securitySuite(() => t, {
  name: 'GET /api/notifications/unread',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/notifications/unread' }),
});
securitySuite(() => t, {
  name: 'GET /api/account/notification-preferences',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/account/notification-preferences' }),
});
securitySuite(() => t, {
  name: 'PATCH /api/account/notification-preferences',
  auth: 'session',
  noWorkspace: true,
  request: () => ({
    method: 'PATCH',
    url: '/api/account/notification-preferences',
    payload: { 'trial.ending': { email: true } },
  }),
});

const prefs = (user: TestUser, payload?: object) =>
  t.request({
    method: payload ? 'PATCH' : 'GET',
    url: '/api/account/notification-preferences',
    headers: user.headers,
    ...(payload && { payload }),
  });

const noticesFor = (user: TestUser, ws: string, type: string) =>
  t.ctx.db
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.userId, user.id), eq(notifications.workspaceId, ws), eq(notifications.type, type)),
    );

const mailsTo = (email: string, subject: string) =>
  smtp.mails.filter((m) => m.to.includes(email) && m.raw.includes(subject));

/** A workspace with an owner and two admins, each a fresh user (preferences are per user). */
async function team(plan: 'free' | 'pro' = 'free') {
  const [owner, admin1, admin2] = await Promise.all([signupUser(t), signupUser(t), signupUser(t)]);
  const ws = await insertWorkspace(t, owner, { plan, name: 'Team' });
  await addMember(t, ws, admin1, 'admin');
  await addMember(t, ws, admin2, 'admin');
  return { ws, owner, admin1, admin2 };
}

describe('preferences (docs/notifications.md "Preferences")', () => {
  it('every kind on by default; a PATCH changes only what it names and returns the whole set', async () => {
    const user = await signupUser(t);
    const res = await prefs(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual([...NOTICE_KINDS].sort());
    for (const k of NOTICE_KINDS) expect(res.json().data[k]).toEqual({ inApp: true, email: true });

    const patched = await prefs(user, {
      'credits.warning': { email: false },
      'payment.failed': { inApp: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({
      'credits.warning': { inApp: true, email: false },
      'payment.failed': { inApp: false, email: true },
      'trial.ending': { inApp: true, email: true },
    });
    await prefs(user, { 'credits.warning': { inApp: false } });
    expect((await prefs(user)).json().data['credits.warning']).toEqual({ inApp: false, email: false });
    // Someone else's are untouched.
    expect((await prefs(w.member)).json().data['credits.warning']).toEqual({ inApp: true, email: true });
  });

  it('hostile bodies are 400 bad_request:api and change nothing', async () => {
    const user = await signupUser(t);
    const bodies: unknown[] = [
      { 'credits.nope': { email: false } },
      { 'credits.warning': { email: 'false' } },
      { 'credits.warning': { email: false, sms: false } },
      { 'credits.warning': false },
      { 'credits.warning': [false] },
      '{"__proto__": {"email": false}}',
      { 'crédits.warning': { email: false } },
      { ['x'.repeat(10_000)]: { email: false } },
      [],
      'null',
    ];
    for (const payload of bodies) {
      const res = await t.request({
        method: 'PATCH',
        url: '/api/account/notification-preferences',
        headers: { ...user.headers, 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 60)} → ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    for (const k of NOTICE_KINDS)
      expect((await prefs(user)).json().data[k]).toEqual({ inApp: true, email: true });
  });
});

describe('kinds, in the app and over SMTP (docs/notifications.md "Kinds")', () => {
  it('credits at 80% and 100%: each admin in the app and by SMTP, per their preferences', async () => {
    const { ws, owner, admin1, admin2 } = await team('free');
    // The owner wants no credit notices at all; admin1 only in the app; admin2 everything.
    for (const kind of ['credits.warning', 'credits.exhausted']) {
      await prefs(owner, { [kind]: { inApp: false, email: false } });
      await prefs(admin1, { [kind]: { email: false } });
    }
    await setUsed(t, ws, 39);
    await reserveMany(t, ws, 1);
    await waitFor(() => mailsTo(admin2.email, "80% of this month's AI credits").length === 1, 10_000, 'smtp');
    await reserveMany(t, ws, 10);
    await waitFor(() => mailsTo(admin2.email, 'monthly AI credits used up').length === 1, 10_000, 'smtp');

    for (const kind of ['credits.warning', 'credits.exhausted']) {
      expect(await noticesFor(owner, ws, kind)).toHaveLength(0);
      expect(await noticesFor(admin1, ws, kind)).toHaveLength(1);
      expect(await noticesFor(admin2, ws, kind)).toHaveLength(1);
    }
    expect(smtp.mails.filter((m) => m.to.includes(owner.email) || m.to.includes(admin1.email))).toEqual([]);
    const mail = mailsTo(admin2.email, 'monthly AI credits used up')[0];
    expect(mail?.from).toBe('no-reply@parley.test');
    expect(mail?.raw).toContain('Turn this kind of email off');

    const unread = await t.request({
      method: 'GET',
      url: '/api/notifications/unread',
      headers: admin2.headers,
    });
    expect(unread.json()).toEqual({ data: { unread: 2 } });
    await t.request({ method: 'POST', url: '/api/notifications/read-all', headers: admin2.headers });
    expect(
      (await t.request({ method: 'GET', url: '/api/notifications/unread', headers: admin2.headers })).json(),
    ).toEqual({ data: { unread: 0 } });
  });

  it('an ingestion that failed: owners and admins, in the app and by email', async () => {
    const { ws, owner, admin1, admin2 } = await team('pro');
    await prefs(admin1, { 'ingestion.failed': { inApp: false, email: false } });
    const assistantId = await createAssistant(t, owner, ws);
    const body = multipart('broken.pdf', Buffer.from('%PDF-1.7 not really'), 'application/pdf');
    const res = await t.request({
      method: 'POST',
      url: `/api/assistants/${assistantId}/sources/files`,
      headers: { ...owner.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    await drainIngestion(t);
    const [notice] = await noticesFor(owner, ws, 'ingestion.failed');
    expect(notice?.title).toBe('A knowledge source failed: broken.pdf');
    expect(notice?.body).toMatch(/PDF/);
    expect(await noticesFor(admin2, ws, 'ingestion.failed')).toHaveLength(1);
    expect(await noticesFor(admin1, ws, 'ingestion.failed')).toHaveLength(0);
    await waitFor(() => mailsTo(admin2.email, 'A knowledge source failed').length === 1, 10_000, 'smtp');
    expect(mailsTo(admin1.email, 'A knowledge source failed')).toEqual([]);
  });

  it('an invitation: in the app for an existing account (unless turned off); the email always', async () => {
    const { ws, owner } = await team('pro');
    const [invitee, quiet] = await Promise.all([signupUser(t), signupUser(t)]);
    await prefs(quiet, { invitation: { inApp: false } });
    for (const who of [invitee, quiet]) {
      const res = await t.request({
        method: 'POST',
        url: `/api/workspaces/${ws}/invitations`,
        headers: owner.headers,
        payload: { email: who.email, role: 'member' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const [notice] = await noticesFor(invitee, ws, 'invitation');
    expect(notice?.title).toBe('You are invited to Team');
    expect(await noticesFor(quiet, ws, 'invitation')).toHaveLength(0);
    await waitFor(() => smtp.mails.some((m) => m.to.includes(quiet.email)), 10_000, 'invitation email');
  });
});
