import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
let pat: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  pat = await personalToken(t, w.owner);
});
afterAll(() => t.close());

const base = () => `/api/workspaces/${w.ws}/assistants`;

describe('Form B assistants', () => {
  it('creates with a bearer token, showing widgetEnabled and projectCount', async () => {
    const res = await t.request({
      method: 'POST',
      url: base(),
      headers: pat,
      payload: { name: 'B bot', widgetEnabled: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'B bot',
      model: 'auto',
      widgetEnabled: true,
      projectCount: 0,
      visibility: 'workspace',
    });
  });

  it('lists with exactly the Form B listing fields', async () => {
    const res = await t.request({ method: 'GET', url: `${base()}?limit=5`, headers: pat });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data[0]).sort()).toEqual(
      ['createdAt', 'id', 'model', 'name', 'projectCount', 'visibility', 'widgetEnabled'].sort(),
    );
    expect(res.json()).toMatchObject({ limit: 5, offset: 0 });
  });

  it('PATCH widgetEnabled writes the widget flag seen by both forms; the same record backs Form A', async () => {
    const created = await t.request({ method: 'POST', url: base(), headers: pat, payload: { name: 'Flag' } });
    const id = created.json().data.id;
    expect(created.json().data.widgetEnabled).toBe(false);
    const patched = await t.request({
      method: 'PATCH',
      url: `${base()}/${id}`,
      headers: pat,
      payload: { widgetEnabled: true, temperature: 1 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ widgetEnabled: true, temperature: 1 });
    const formA = await t.request({ method: 'GET', url: `/api/assistants/${id}`, headers: w.owner.headers });
    expect(formA.json().data).toMatchObject({ id, temperature: 1 });
    expect(formA.json().data).not.toHaveProperty('widgetEnabled');
  });

  it('answers 404 for an assistant of another workspace and before validating the body', async () => {
    const other = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.otherWs}/assistants`,
      headers: await personalToken(t, w.outsider),
      payload: { name: 'Theirs' },
    });
    const theirs = other.json().data.id;
    expect((await t.request({ method: 'GET', url: `${base()}/${theirs}`, headers: pat })).statusCode).toBe(
      404,
    );
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `${base()}/${theirs}`,
          headers: pat,
          payload: { temperature: 99 },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('connects and disconnects projects, counting them', async () => {
    const asst = (
      await t.request({ method: 'POST', url: base(), headers: pat, payload: { name: 'P' } })
    ).json().data.id;
    const project = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/projects`,
      headers: pat,
      payload: { name: 'Docs' },
    });
    const pid = project.json().data.id;
    const connect = await t.request({
      method: 'POST',
      url: `${base()}/${asst}/projects`,
      headers: pat,
      payload: { projectId: pid },
    });
    expect(connect.statusCode).toBe(201);
    expect(connect.json().data).toMatchObject({ id: pid, name: 'Docs', documentCount: 0 });
    const again = await t.request({
      method: 'POST',
      url: `${base()}/${asst}/projects`,
      headers: pat,
      payload: { projectId: pid },
    });
    expect(again.statusCode).toBe(409);
    const list = await t.request({ method: 'GET', url: `${base()}/${asst}/projects`, headers: pat });
    expect(list.json().data).toHaveLength(1);
    expect(
      (await t.request({ method: 'GET', url: `${base()}/${asst}`, headers: pat })).json().data.projectCount,
    ).toBe(1);
    const missing = await t.request({
      method: 'POST',
      url: `${base()}/${asst}/projects`,
      headers: pat,
      payload: { projectId: 'prj_nope' },
    });
    expect(missing.statusCode).toBe(404);
    expect(
      (await t.request({ method: 'DELETE', url: `${base()}/${asst}/projects/${pid}`, headers: pat }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.request({ method: 'DELETE', url: `${base()}/${asst}/projects/${pid}`, headers: pat }))
        .statusCode,
    ).toBe(404);
    // deleting an assistant never deletes a project
    await t.request({
      method: 'POST',
      url: `${base()}/${asst}/projects`,
      headers: pat,
      payload: { projectId: pid },
    });
    expect((await t.request({ method: 'DELETE', url: `${base()}/${asst}`, headers: pat })).statusCode).toBe(
      204,
    );
    expect(
      (await t.request({ method: 'GET', url: `/api/workspaces/${w.ws}/projects/${pid}`, headers: pat }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses members writing and an API key on this surface', async () => {
    const member = await personalToken(t, w.member);
    expect(
      (await t.request({ method: 'POST', url: base(), headers: member, payload: { name: 'x' } })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: base(), headers: member })).statusCode).toBe(200);
  });
});
