import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  events,
  memberships,
  personalTokens,
  sessions,
  users,
  workspaces,
} from '../../src/db/schema/index.ts';
import { personalToken, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { addMember, insertApiKey, insertWorkspace } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const del = (headers: Record<string, string>, payload?: unknown) =>
  t.request({ method: 'DELETE', url: '/api/account', headers, payload: payload as object });

describe('DELETE /api/account', () => {
  it('deletes the user, their credentials and owned workspaces; leaves the others with member.left', async () => {
    const u = await signupUser(t);
    const owned = await insertWorkspace(t, u);
    const teammate = await signupUser(t);
    await addMember(t, owned, teammate, 'admin');
    const key = await insertApiKey(t, owned, ['events:read']);
    const boss = await signupUser(t);
    const theirs = await insertWorkspace(t, boss);
    await addMember(t, theirs, u, 'admin');
    const pat = await personalToken(t, u);
    await t.request({ method: 'POST', url: '/api/account/export', headers: u.headers });

    const res = await del(u.headers, { confirm: 'DELETE' });
    expect(res.statusCode, res.body).toBe(204);
    const cleared = res.cookies.find((c) => c.name === 'parley.session-token');
    expect(cleared?.value).toBe('');

    expect(await t.ctx.db.select().from(users).where(eq(users.id, u.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(personalTokens).where(eq(personalTokens.userId, u.id))).toHaveLength(
      0,
    );
    expect(await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, owned))).toHaveLength(0);
    expect(await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, owned))).toHaveLength(0);
    expect(await t.ctx.db.select().from(memberships).where(eq(memberships.userId, u.id))).toHaveLength(0);
    // The other workspace and its owner stay; the teammate's account stays.
    expect(await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, theirs))).toHaveLength(1);
    expect(
      await t.ctx.db
        .select()
        .from(users)
        .where(inArray(users.id, [boss.id, teammate.id])),
    ).toHaveLength(2);
    const left = await t.ctx.db.select().from(events).where(eq(events.workspaceId, theirs));
    expect(left).toEqual([
      expect.objectContaining({
        type: 'member.left',
        data: { userId: u.id, role: 'admin', reason: 'account_deleted' },
      }),
    ]);

    for (const headers of [u.headers, pat]) {
      expect((await t.request({ method: 'GET', url: '/api/account', headers })).statusCode).toBe(401);
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/workspace', headers: key })).statusCode).toBe(401);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    expect(login.statusCode).toBe(401);
    // The email is free again.
    expect((await signupUser(t, { email: u.email })).id).not.toBe(u.id);
  });

  it('400 unless the body is exactly {confirm: "DELETE"}', async () => {
    const u = await signupUser(t);
    for (const payload of [
      undefined,
      {},
      { confirm: 'delete' },
      { confirm: 'DELETE ' },
      { confirm: true },
      { confirm: 'DELETE', also: 1 },
      { confirm: 'ＤＥＬＥＴＥ' },
    ]) {
      const res = await del(u.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    expect((await t.request({ method: 'GET', url: '/api/account', headers: u.headers })).statusCode).toBe(
      200,
    );
  });
});

securitySuite(() => t, {
  name: 'DELETE /api/account',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'DELETE', url: '/api/account', payload: { confirm: 'DELETE' } }),
});
