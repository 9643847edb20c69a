import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invitations } from '../../src/db/schema/index.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { personalToken, signupUser, uniqueEmail } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { eventsOf } from '../support/webhooks.ts';
import { addMember, createWorld, type World } from '../support/world.ts';
import { cloneWorld, insertInvitation } from './helpers.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

const invites = (ws: string) => `/api/workspaces/${ws}/invitations`;
const invite = (ws: string, headers: Record<string, string>, payload: unknown, app = t) =>
  app.request({ method: 'POST', url: invites(ws), headers, payload: payload as object });
const accept = (token: string, headers: Record<string, string>) =>
  t.request({ method: 'POST', url: `/api/invitations/${token}/accept`, headers });
const tokenOf = (inviteUrl: string) => inviteUrl.split('/invite/')[1]!;

/** The .eml files in DATA_DIR/mail, quoted-printable soft breaks undone. */
function mails(app: TestApp) {
  const dir = join(app.dataDir, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((f) =>
    readFileSync(join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '='),
  );
}

describe('POST /api/workspaces/:workspaceId/invitations', () => {
  it('creates an invitation with a 7-day link, stores only the token hash and emails it', async () => {
    const ws = await cloneWorld(t, w);
    const email = uniqueEmail('invitee');
    const res = await invite(ws, w.admin.headers, { email: `  ${email.toUpperCase()} `, role: 'member' });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(/^inv_/),
      email,
      role: 'member',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      inviteUrl: expect.stringMatching(new RegExp(`^${ORIGIN}/invite/[A-Za-z0-9_-]{43}$`)),
    });
    const days = (new Date(data.expiresAt).getTime() - new Date(data.createdAt).getTime()) / 86_400_000;
    expect(days).toBe(7);
    const token = tokenOf(data.inviteUrl);
    const [row] = await t.ctx.db.select().from(invitations).where(eq(invitations.id, data.id));
    expect(row?.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const mail = mails(t).find((m) => m.includes(email));
    expect(mail, 'invitation email in DATA_DIR/mail').toBeDefined();
    expect(mail).toContain(data.inviteUrl);
    expect(mail).toMatch(/Subject: Join Acme on Parley/);
  });

  it('uses the request origin for the link when PUBLIC_BASE_URL is unset', async () => {
    const app = await createTestApp({ PUBLIC_BASE_URL: undefined as unknown as string });
    // Without PUBLIC_BASE_URL the app's own origin is the scheme and Host of each request.
    app.request = (opts) =>
      app.app.inject({ ...opts, headers: { origin: 'http://localhost:80', ...opts.headers } });
    try {
      const world = await createWorld(app);
      const res = await app.request({
        method: 'POST',
        url: invites(world.ws),
        headers: {
          ...world.owner.headers,
          host: 'support.example.org',
          origin: 'http://support.example.org',
        },
        payload: { email: uniqueEmail(), role: 'guest' },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.inviteUrl).toMatch(/^http:\/\/support\.example\.org\/invite\//);
    } finally {
      await app.close();
    }
  });

  it('still answers 201 when the email cannot be sent (the failure is only logged)', async () => {
    const app = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const world = await createWorld(app);
      const res = await invite(world.ws, world.owner.headers, { email: uniqueEmail(), role: 'admin' }, app);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.inviteUrl).toContain('/invite/');
    } finally {
      await app.close();
    }
  });

  it('409 when the email already belongs to a member', async () => {
    const ws = await cloneWorld(t, w);
    const res = await invite(ws, w.owner.headers, { email: w.member.email.toUpperCase(), role: 'admin' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict:api', details: { email: 'Already a member' } });
  });

  it('409 for a second pending invitation; revoking or expiry frees the email', async () => {
    const ws = await cloneWorld(t, w);
    const email = uniqueEmail();
    const first = await invite(ws, w.owner.headers, { email, role: 'member' });
    expect((await invite(ws, w.admin.headers, { email, role: 'guest' })).statusCode).toBe(409);
    const del = await t.request({
      method: 'DELETE',
      url: `${invites(ws)}/${first.json().data.id}`,
      headers: w.admin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect((await invite(ws, w.owner.headers, { email, role: 'guest' })).statusCode).toBe(201);
    setClockOffset(8 * 86_400_000);
    expect((await invite(ws, w.owner.headers, { email, role: 'guest' })).statusCode).toBe(201);
  });

  it('keeps concurrent invitations of one email to exactly one', async () => {
    const ws = await cloneWorld(t, w);
    const email = uniqueEmail();
    const codes = (
      await Promise.all(
        Array.from({ length: 5 }, () => invite(ws, w.owner.headers, { email, role: 'member' })),
      )
    ).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(4);
  });

  it('400 for bad bodies: owner role, bad email, unknown fields, huge input', async () => {
    const ws = await cloneWorld(t, w);
    for (const payload of [
      { email: uniqueEmail(), role: 'owner' },
      { email: 'not-an-email', role: 'member' },
      { email: `${'a'.repeat(300)}@example.com`, role: 'member' },
      { email: uniqueEmail() },
      { role: 'member' },
      { email: ['a@b.co'], role: 'member' },
      { email: uniqueEmail(), role: 'member', workspaceId: w.otherWs },
      { email: 'ünï@exämple.com\u0000', role: 'member' },
    ]) {
      const res = await invite(ws, w.owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });
});

describe('GET and DELETE /api/workspaces/:workspaceId/invitations', () => {
  it('lists pending invitations only, newest first, offset paged, without tokens', async () => {
    const ws = await cloneWorld(t, w);
    const a = await insertInvitation(t, ws, uniqueEmail());
    const b = await insertInvitation(t, ws, uniqueEmail(), { role: 'guest' });
    await insertInvitation(t, ws, uniqueEmail(), { expiresAt: new Date(Date.now() - 1000) });
    await insertInvitation(t, w.otherWs, uniqueEmail());
    const res = await t.request({ method: 'GET', url: `${invites(ws)}?limit=1`, headers: w.admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(res.json().data[0]).toEqual({
      id: b.id,
      email: expect.any(String),
      role: 'guest',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const all = await t.request({ method: 'GET', url: invites(ws), headers: w.owner.headers });
    expect(
      all
        .json()
        .data.map((i: { id: string }) => i.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
  });

  it('revoking makes the link unusable; unknown, foreign and accepted invitations are 404', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t);
    const inv = await insertInvitation(t, ws, invitee.email);
    expect(
      (await t.request({ method: 'DELETE', url: `${invites(ws)}/${inv.id}`, headers: w.owner.headers }))
        .statusCode,
    ).toBe(204);
    expect((await accept(inv.token, invitee.headers)).statusCode).toBe(404);
    const foreign = await insertInvitation(t, w.otherWs, uniqueEmail());
    for (const id of [inv.id, 'inv_nope', foreign.id]) {
      const res = await t.request({
        method: 'DELETE',
        url: `${invites(ws)}/${id}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, id).toBe(404);
    }
    const used = await insertInvitation(t, ws, invitee.email);
    expect((await accept(used.token, invitee.headers)).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `${invites(ws)}/${used.id}`, headers: w.owner.headers }))
        .statusCode,
    ).toBe(404);
  });
});

describe('POST /api/invitations/:token/accept', () => {
  it('joins with the invited role, records member.joined, and the link works once', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t, { name: 'Newbie' });
    const created = await invite(ws, w.owner.headers, { email: invitee.email, role: 'admin' });
    const token = tokenOf(created.json().data.inviteUrl);
    const res = await accept(token, await personalToken(t, invitee));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { workspaceId: ws, role: 'admin' } });
    const view = await t.request({ method: 'GET', url: `/api/workspaces/${ws}`, headers: invitee.headers });
    expect(view.json().data).toMatchObject({ role: 'admin', memberCount: 5 });
    const events = await eventsOf(t, ws, 'member.joined');
    expect(events.map((e) => e.data)).toEqual([{ userId: invitee.id, workspaceId: ws, role: 'admin' }]);
    expect((await accept(token, invitee.headers)).statusCode).toBe(404);
    const list = await t.request({ method: 'GET', url: invites(ws), headers: w.owner.headers });
    expect(list.json().total).toBe(0);
  });

  it('403 for a different signed-in email; the invitation stays usable', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t);
    const { token } = await insertInvitation(t, ws, invitee.email);
    const res = await accept(token, w.outsider.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden:api');
    expect((await accept(token, invitee.headers)).statusCode).toBe(200);
  });

  it('404 for unknown, malformed and expired tokens', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t);
    const { token } = await insertInvitation(t, ws, invitee.email);
    for (const bad of ['nope', 'x'.repeat(150), encodeURIComponent("' or 1=1 --"), `${token}x`]) {
      expect((await accept(bad, invitee.headers)).statusCode, bad).toBe(404);
    }
    // Longer than any route parameter: no route matches.
    expect((await accept('x'.repeat(201), invitee.headers)).statusCode).toBe(404);
    setClockOffset(7 * 86_400_000 + 60_000);
    expect((await accept(token, invitee.headers)).statusCode).toBe(404);
  });

  it('409 for someone already a member, and the rolled-back accept records nothing', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t);
    const { id, token } = await insertInvitation(t, ws, invitee.email);
    await addMember(t, ws, invitee, 'guest');
    const res = await accept(token, invitee.headers);
    expect(res.statusCode).toBe(409);
    expect(await eventsOf(t, ws, 'member.joined')).toHaveLength(0);
    const [row] = await t.ctx.db.select().from(invitations).where(eq(invitations.id, id));
    expect(row?.acceptedAt).toBeNull();
  });

  it('lets exactly one of several concurrent accepts through', async () => {
    const ws = await cloneWorld(t, w);
    const invitee = await signupUser(t);
    const { token } = await insertInvitation(t, ws, invitee.email);
    const codes = (await Promise.all(Array.from({ length: 5 }, () => accept(token, invitee.headers)))).map(
      (r) => r.statusCode,
    );
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(await eventsOf(t, ws, 'member.joined')).toHaveLength(1);
  });
});
