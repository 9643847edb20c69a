import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { createAssistant, personalToken, signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { exportLink } from './mail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function requestExport(u: TestUser) {
  const res = await t.request({ method: 'POST', url: '/api/account/export', headers: u.headers });
  expect(res.statusCode, res.body).toBe(202);
  const link = exportLink(t, u.email);
  if (!link) throw new Error('no export link mailed');
  return { res, link };
}

describe('POST /api/account/export and GET /api/account/exports/:token', () => {
  it('mails a link; the owner downloads profile, preferences, workspaces and token metadata', async () => {
    const u = await signupUser(t, { name: 'Exporter' });
    const own = await insertWorkspace(t, u, { name: 'Mine' });
    const boss = await signupUser(t);
    const theirs = await insertWorkspace(t, boss, { name: 'Theirs' });
    await addMember(t, theirs, u, 'member');
    const pat = await personalToken(t, u);
    const { res, link } = await requestExport(u);
    expect(res.json().data).toMatchObject({ email: u.email, expiresAt: expect.any(String) });
    expect(new Date(res.json().data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const dl = await t.request({ method: 'GET', url: link, headers: u.headers });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toMatch(/application\/json/);
    expect(dl.headers['content-disposition']).toMatch(
      /^attachment; filename="parley-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(dl.headers['cache-control']).toBe('no-store');
    const body = dl.json();
    expect(body.user).toMatchObject({
      id: u.id,
      email: u.email,
      name: 'Exporter',
      preferences: { theme: 'system' },
    });
    expect(body.workspaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: own, name: 'Mine', role: 'owner', owner: true }),
        expect.objectContaining({ id: theirs, name: 'Theirs', role: 'member', owner: false }),
      ]),
    );
    expect(body.personalTokens).toHaveLength(1);
    expect(body.personalTokens[0]).toMatchObject({ name: 't', last4: String(pat.authorization).slice(-4) });
    expect(dl.body).not.toContain(String(pat.authorization).slice(7));
    expect(dl.body).not.toMatch(/\$argon2/);
    expect(body.sessions.length).toBeGreaterThan(0);
  });

  it('includes the internal chats the user started, with their messages, and their replies as an agent', async () => {
    const u = await signupUser(t, { name: 'Chatter' });
    const boss = await signupUser(t, { name: 'Boss' });
    const ws = await insertWorkspace(t, boss, { name: 'Shared' });
    await addMember(t, ws, u, 'member');
    const asst = await createAssistant(t, boss, ws);
    const own = await chat(t, u, { assistantId: asst, content: 'What are your opening hours?' });
    const handed = await chat(t, u, { assistantId: asst, content: 'I want to talk to a human' });
    const theirs = await chat(t, boss, { assistantId: asst, content: 'A private question of the boss' });
    // The boss answers the handed-off chat from the inbox as a person.
    const reply = await t.request({
      method: 'POST',
      url: `/api/inbox/conversations/${handed.conversationId}/messages`,
      headers: boss.headers,
      payload: { content: 'Boss here, how can I help?' },
    });
    expect(reply.statusCode, reply.body).toBe(201);

    const mine = (
      await t.request({ method: 'GET', url: (await requestExport(u)).link, headers: u.headers })
    ).json();
    expect(mine.conversations.map((c: { id: string }) => c.id)).toEqual([
      own.conversationId,
      handed.conversationId,
    ]);
    expect(JSON.stringify(mine)).not.toContain(theirs.conversationId as string);
    const first = mine.conversations[0];
    expect(first).toMatchObject({ channel: 'chat', assistantId: asst, workspaceId: ws });
    expect(first.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'What are your opening hours?'],
      ['assistant', expect.any(String)],
    ]);
    // The agent's reply is in the chat it was written in (the user's own conversation).
    expect(mine.conversations[1].messages.at(-1)).toMatchObject({
      role: 'agent',
      content: 'Boss here, how can I help?',
    });
    expect(mine.agentMessages).toEqual([]);

    const bosses = (
      await t.request({ method: 'GET', url: (await requestExport(boss)).link, headers: boss.headers })
    ).json();
    expect(bosses.agentMessages).toEqual([
      expect.objectContaining({
        role: 'agent',
        content: 'Boss here, how can I help?',
        conversationId: handed.conversationId,
        workspaceId: ws,
        channel: 'chat',
      }),
    ]);
    expect(bosses.conversations.map((c: { id: string }) => c.id)).toEqual([theirs.conversationId]);
  });

  it('404 for another user, an unknown, malformed or expired token', async () => {
    const u = await signupUser(t);
    const other = await signupUser(t);
    const { link } = await requestExport(u);
    const stranger = await t.request({ method: 'GET', url: link, headers: other.headers });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('not_found:api');
    for (const token of ['A'.repeat(43), '..%2F..%2Fetc%2Fpasswd', '%2E%2E%2Fx.json', 'x', 'ü'.repeat(10)]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/account/exports/${token}`,
        headers: u.headers,
      });
      expect(res.statusCode, token).toBe(404);
    }
    const token = link.split('/').pop()!;
    const file = join(t.dataDir, 'exports', u.id, `${token}.json`);
    const old = new Date(Date.now() - 8 * 86_400_000);
    utimesSync(file, old, old);
    expect((await t.request({ method: 'GET', url: link, headers: u.headers })).statusCode).toBe(404);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps at most five exports per user', async () => {
    const u = await signupUser(t);
    for (let i = 0; i < 7; i++) await requestExport(u);
    expect(readdirSync(join(t.dataDir, 'exports', u.id))).toHaveLength(5);
  });

  it('limits downloads to 20 a minute per user (429 with Retry-After)', async () => {
    const u = await signupUser(t);
    const { link } = await requestExport(u);
    for (let i = 0; i < 20; i++) {
      expect((await t.request({ method: 'GET', url: link, headers: u.headers })).statusCode).toBe(200);
    }
    const res = await t.request({ method: 'GET', url: link, headers: u.headers });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limit:api');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Per user: someone else still downloads.
    const v = await signupUser(t);
    const theirs = await requestExport(v);
    expect((await t.request({ method: 'GET', url: theirs.link, headers: v.headers })).statusCode).toBe(200);
  });

  it('refuses unknown fields on the export request', async () => {
    const u = await signupUser(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/account/export',
      headers: u.headers,
      payload: { format: 'csv' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({ format: 'Unknown field' });
    const empty = await t.request({
      method: 'POST',
      url: '/api/account/export',
      headers: u.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(202);
  });
});

securitySuite(() => t, {
  name: 'POST /api/account/export',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'POST', url: '/api/account/export' }),
});

const links = new Map<string, string>();
securitySuite(() => t, {
  name: 'GET /api/account/exports/:token',
  auth: 'session',
  noWorkspace: true,
  prepare: async (app, world) => {
    let link = links.get(world.owner.id);
    if (!link) {
      const res = await app.request({
        method: 'POST',
        url: '/api/account/export',
        headers: world.owner.headers,
      });
      expect(res.statusCode).toBe(202);
      link = exportLink(app, world.owner.email)!;
      links.set(world.owner.id, link);
    }
    return { link };
  },
  request: (_ws, extra) => ({ method: 'GET', url: extra.link! }),
});
