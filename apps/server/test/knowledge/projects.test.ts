import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { drainIngestion, multipart, search } from './helpers.ts';

let t: TestApp;
let w: World;
let pat: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  pat = await personalToken(t, w.owner);
});
afterAll(() => t.close());

const ws = () => `/api/workspaces/${w.ws}`;

describe('projects and documents', () => {
  it('an assistant answers from its own sources plus connected projects', async () => {
    const project = (
      await t.request({
        method: 'POST',
        url: `${ws()}/projects`,
        headers: pat,
        payload: { name: 'Handbook' },
      })
    ).json().data;
    const doc = await t.request({
      method: 'POST',
      url: `${ws()}/projects/${project.id}/documents`,
      headers: pat,
      payload: { type: 'text', name: 'Holidays', text: 'The office closes for holidays in August.' },
    });
    expect(doc.statusCode).toBe(201);
    expect(doc.json().data).toMatchObject({ projectId: project.id, assistantId: null, status: 'pending' });
    const file = multipart('faq.md', Buffer.from('# Parking\n\nVisitors park in lot B.'), 'text/markdown');
    const upload = await t.request({
      method: 'POST',
      url: `${ws()}/projects/${project.id}/documents/files`,
      headers: { ...pat, ...file.headers },
      payload: file.payload,
    });
    expect(upload.statusCode).toBe(201);
    await drainIngestion(t);
    const got = await t.request({ method: 'GET', url: `${ws()}/projects/${project.id}`, headers: pat });
    expect(got.json().data.documentCount).toBe(2);

    const asst = (
      await t.request({ method: 'POST', url: `${ws()}/assistants`, headers: pat, payload: { name: 'HR' } })
    ).json().data.id;
    expect(await search(t, w.owner, asst, 'holidays August')).toHaveLength(0);
    await t.request({
      method: 'POST',
      url: `${ws()}/assistants/${asst}/projects`,
      headers: pat,
      payload: { projectId: project.id },
    });
    const hits = await search(t, w.owner, asst, 'when does the office close for holidays');
    expect(hits[0]!.content).toContain('August');
    expect((await search(t, w.owner, asst, 'visitors parking'))[0]!.heading).toBe('Parking');

    const docs = await t.request({
      method: 'GET',
      url: `${ws()}/projects/${project.id}/documents`,
      headers: pat,
    });
    expect(docs.json().total).toBe(2);
    const del = await t.request({
      method: 'DELETE',
      url: `${ws()}/projects/${project.id}/documents/${doc.json().data.id}`,
      headers: pat,
    });
    expect(del.statusCode).toBe(204);
    expect(await search(t, w.owner, asst, 'holidays August')).toHaveLength(0);

    expect(
      (await t.request({ method: 'DELETE', url: `${ws()}/projects/${project.id}`, headers: pat })).statusCode,
    ).toBe(204);
    expect(await search(t, w.owner, asst, 'visitors parking')).toHaveLength(0);
  });

  it('patches, paginates and validates projects', async () => {
    const p = (
      await t.request({ method: 'POST', url: `${ws()}/projects`, headers: pat, payload: { name: 'Old' } })
    ).json().data;
    const patched = await t.request({
      method: 'PATCH',
      url: `${ws()}/projects/${p.id}`,
      headers: pat,
      payload: { name: 'New', description: 'd' },
    });
    expect(patched.json().data).toMatchObject({ name: 'New', description: 'd' });
    for (const payload of [{}, { name: '' }, { name: 'x', extra: true }, { name: 5 }]) {
      const res = await t.request({ method: 'POST', url: `${ws()}/projects`, headers: pat, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (await t.request({ method: 'GET', url: `${ws()}/projects/prj_missing`, headers: pat })).statusCode,
    ).toBe(404);
    const page = await t.request({ method: 'GET', url: `${ws()}/projects?limit=1&offset=0`, headers: pat });
    expect(page.json()).toMatchObject({ limit: 1, offset: 0 });
  });
});
