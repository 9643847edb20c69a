import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistants, events } from '../../src/db/schema/index.ts';
import { createAssistant, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { addMember, createWorld, personalToken, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

describe('POST /api/assistants', () => {
  it('creates with the spec defaults and model auto', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: w.owner.headers,
      payload: { workspaceId: w.ws, name: 'Support bot' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Support bot',
      instructions: '',
      visibility: 'workspace',
      temperature: 0.7,
      maxTokens: 4096,
      welcomeMessage: null,
      model: 'auto',
      workspaceId: w.ws,
      createdBy: w.owner.id,
    });
    expect(res.json().data.id).toMatch(/^asst_/);
  });

  it('accepts every field at its bounds', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: w.admin.headers,
      payload: {
        workspaceId: w.ws,
        name: 'Ünïcødé 助手 🤖',
        instructions: 'Be kind.',
        visibility: 'private',
        temperature: 2,
        maxTokens: 32768,
        welcomeMessage: 'Hi!',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Ünïcødé 助手 🤖',
      temperature: 2,
      maxTokens: 32768,
      visibility: 'private',
    });
  });

  it('refuses public visibility, out-of-range numbers, wrong types and unknown fields with details', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ visibility: 'public' }, 'visibility'],
      [{ temperature: 2.01 }, 'temperature'],
      [{ temperature: -0.1 }, 'temperature'],
      [{ temperature: '1' }, 'temperature'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ maxTokens: 1.5 }, 'maxTokens'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ model: 'gpt-4' }, 'model'],
      [{ id: 'asst_x' }, 'id'],
      [{ instructions: 'x'.repeat(20_001) }, 'instructions'],
    ];
    for (const [patch, field] of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/api/assistants',
        headers: w.owner.headers,
        payload: { workspaceId: w.ws, name: 'A', ...patch },
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(res.json().details).toHaveProperty(field);
    }
  });

  it('needs workspaceId when the caller belongs to several workspaces, and infers it for one', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: w.owner.headers,
      payload: { name: 'A' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.workspaceId).toBe(w.ws);
    const multi = await signupUser(t);
    await addMember(t, w.ws, multi, 'admin');
    await addMember(t, w.otherWs, multi, 'admin');
    const ambiguous = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: multi.headers,
      payload: { name: 'A' },
    });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().details).toHaveProperty('workspaceId');
  });

  it('403 for members and guests, 404 for a foreign workspace', async () => {
    for (const u of [w.member, w.guest]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/assistants',
        headers: u.headers,
        payload: { workspaceId: w.ws, name: 'A' },
      });
      expect(res.statusCode).toBe(403);
    }
    const foreign = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: w.owner.headers,
      payload: { workspaceId: w.otherWs, name: 'A' },
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('visibility', () => {
  it('hides private assistants from members without a grant, shows them after a grant', async () => {
    const id = await createAssistant(t, w.admin, w.ws, { visibility: 'private', name: 'Secret' });
    const listAs = async (headers: Record<string, string>) =>
      (
        await t.request({ method: 'GET', url: `/api/assistants?workspaceId=${w.ws}&limit=100`, headers })
      ).json();
    expect((await listAs(w.member.headers)).data.map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await listAs(w.owner.headers)).data.map((a: { id: string }) => a.id)).toContain(id);
    const hidden = await t.request({
      method: 'GET',
      url: `/api/assistants/${id}`,
      headers: w.member.headers,
    });
    expect(hidden.statusCode).toBe(404);

    const grant = await t.request({
      method: 'PUT',
      url: `/api/assistants/${id}/access/${w.member.id}`,
      headers: w.admin.headers,
    });
    expect(grant.statusCode).toBe(204);
    expect((await listAs(w.member.headers)).data.map((a: { id: string }) => a.id)).toContain(id);
    expect(
      (await t.request({ method: 'GET', url: `/api/assistants/${id}`, headers: w.member.headers }))
        .statusCode,
    ).toBe(200);

    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/assistants/${id}/access/${w.member.id}`,
      headers: w.admin.headers,
    });
    expect(revoke.statusCode).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: `/api/assistants/${id}`, headers: w.member.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses a grant to a non-member with 404', async () => {
    const id = await createAssistant(t, w.owner, w.ws, { visibility: 'private' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/assistants/${id}/access/${w.outsider.id}`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(404);
  });

  it('lets guests read workspace assistants', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await t.request({ method: 'GET', url: `/api/assistants/${id}`, headers: w.guest.headers });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/assistants (list)', () => {
  it('returns the offset page with only the listing fields', async () => {
    const { owner } = w;
    const res = await t.request({
      method: 'GET',
      url: `/api/assistants?workspaceId=${w.ws}&limit=2&offset=0`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ limit: 2, offset: 0 });
    expect(body.total).toBeGreaterThanOrEqual(body.data.length);
    expect(Object.keys(body.data[0]).sort()).toEqual(['createdAt', 'id', 'model', 'name', 'visibility']);
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'bogus=1']) {
      const bad = await t.request({
        method: 'GET',
        url: `/api/assistants?workspaceId=${w.ws}&${q}`,
        headers: owner.headers,
      });
      expect(bad.statusCode, q).toBe(400);
    }
  });
});

describe('PATCH and DELETE /api/assistants/:id', () => {
  it('updates a subset, records assistant.updated in the same transaction', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/assistants/${id}`,
      headers: w.admin.headers,
      payload: { name: 'Renamed', temperature: 0.2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Renamed', temperature: 0.2, maxTokens: 4096 });
    const rows = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'assistant.updated')));
    expect(
      rows.some(
        (e) => (e.data as { id: string }).id === id && (e.data as { name: string }).name === 'Renamed',
      ),
    ).toBe(true);
  });

  it('keeps legacy public, but never makes an assistant public', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/assistants/${id}`,
      headers: w.owner.headers,
      payload: { visibility: 'public' },
    });
    expect(res.statusCode).toBe(400);
    await t.ctx.db.update(assistants).set({ visibility: 'public' }).where(eq(assistants.id, id));
    const keep = await t.request({
      method: 'PATCH',
      url: `/api/assistants/${id}`,
      headers: w.owner.headers,
      payload: { visibility: 'public', name: 'Legacy' },
    });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().data.visibility).toBe('public');
  });

  it('answers 404 before 400 for a missing assistant, 403 for a member', async () => {
    const missing = await t.request({
      method: 'PATCH',
      url: '/api/assistants/asst_missing',
      headers: w.owner.headers,
      payload: { temperature: 9 },
    });
    expect(missing.statusCode).toBe(404);
    const id = await createAssistant(t, w.owner, w.ws);
    const member = await t.request({
      method: 'PATCH',
      url: `/api/assistants/${id}`,
      headers: w.member.headers,
      payload: { name: 'x' },
    });
    expect(member.statusCode).toBe(403);
  });

  it('deletes permanently', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/assistants/${id}`, headers: w.owner.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: `/api/assistants/${id}`, headers: w.owner.headers })).statusCode,
    ).toBe(404);
    expect(await t.ctx.db.select().from(assistants).where(eq(assistants.id, id))).toHaveLength(0);
  });

  it('rejects a personal access token on the session surface', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await t.request({
      method: 'GET',
      url: `/api/assistants/${id}`,
      headers: await personalToken(t, w.owner),
    });
    expect(res.statusCode).toBe(401);
  });
});
