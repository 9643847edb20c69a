import { afterAll, beforeAll } from 'vitest';
import { multipart } from '../knowledge/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World, withAssistant } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const withProject = async (app: TestApp, w: World, ws: string) => {
  const res = await app.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/projects`,
    headers: ownerOf(w, ws).headers,
    payload: { name: 'p' },
  });
  return { projectId: res.json().data.id as string };
};
const withBoth = async (app: TestApp, w: World, ws: string) => {
  const x = { ...(await withAssistant(app, w, ws)), ...(await withProject(app, w, ws)) };
  await app.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/assistants/${x.assistantId}/projects`,
    headers: ownerOf(w, ws).headers,
    payload: { projectId: x.projectId },
  });
  return x;
};
const A = (ws: string) => `/api/workspaces/${ws}/assistants`;
const P = (ws: string) => `/api/workspaces/${ws}/projects`;

const targets: Parameters<typeof securitySuite>[1][] = [
  { name: 'GET Form B assistants', auth: 'user', request: (ws) => ({ method: 'GET', url: A(ws) }) },
  {
    name: 'POST Form B assistants',
    auth: 'user',
    minRole: 'admin',
    request: (ws) => ({ method: 'POST', url: A(ws), payload: { name: 'n' } }),
  },
  {
    name: 'GET Form B assistant',
    auth: 'user',
    prepare: withAssistant,
    request: (ws, x) => ({ method: 'GET', url: `${A(ws)}/${x.assistantId}` }),
  },
  {
    name: 'PATCH Form B assistant',
    auth: 'user',
    minRole: 'admin',
    prepare: withAssistant,
    request: (ws, x) => ({ method: 'PATCH', url: `${A(ws)}/${x.assistantId}`, payload: { name: 'm' } }),
  },
  {
    name: 'DELETE Form B assistant',
    auth: 'user',
    minRole: 'admin',
    prepare: withAssistant,
    request: (ws, x) => ({ method: 'DELETE', url: `${A(ws)}/${x.assistantId}` }),
  },
  {
    name: 'GET assistant projects',
    auth: 'user',
    prepare: withAssistant,
    request: (ws, x) => ({ method: 'GET', url: `${A(ws)}/${x.assistantId}/projects` }),
  },
  {
    name: 'POST assistant projects',
    auth: 'user',
    minRole: 'admin',
    prepare: async (a, w, ws) => ({ ...(await withAssistant(a, w, ws)), ...(await withProject(a, w, ws)) }),
    request: (ws, x) => ({
      method: 'POST',
      url: `${A(ws)}/${x.assistantId}/projects`,
      payload: { projectId: x.projectId },
    }),
  },
  {
    name: 'DELETE assistant project',
    auth: 'user',
    minRole: 'admin',
    prepare: withBoth,
    request: (ws, x) => ({ method: 'DELETE', url: `${A(ws)}/${x.assistantId}/projects/${x.projectId}` }),
  },
  { name: 'GET projects', auth: 'user', request: (ws) => ({ method: 'GET', url: P(ws) }) },
  {
    name: 'POST projects',
    auth: 'user',
    minRole: 'admin',
    request: (ws) => ({ method: 'POST', url: P(ws), payload: { name: 'n' } }),
  },
  {
    name: 'GET project',
    auth: 'user',
    prepare: withProject,
    request: (ws, x) => ({ method: 'GET', url: `${P(ws)}/${x.projectId}` }),
  },
  {
    name: 'PATCH project',
    auth: 'user',
    minRole: 'admin',
    prepare: withProject,
    request: (ws, x) => ({ method: 'PATCH', url: `${P(ws)}/${x.projectId}`, payload: { name: 'm' } }),
  },
  {
    name: 'DELETE project',
    auth: 'user',
    minRole: 'admin',
    prepare: withProject,
    request: (ws, x) => ({ method: 'DELETE', url: `${P(ws)}/${x.projectId}` }),
  },
  {
    name: 'GET project documents',
    auth: 'user',
    prepare: withProject,
    request: (ws, x) => ({ method: 'GET', url: `${P(ws)}/${x.projectId}/documents` }),
  },
  {
    name: 'POST project documents',
    auth: 'user',
    minRole: 'admin',
    prepare: withProject,
    request: (ws, x) => ({
      method: 'POST',
      url: `${P(ws)}/${x.projectId}/documents`,
      payload: { type: 'text', name: 'n', text: 't' },
    }),
  },
];
for (const target of targets) securitySuite(() => t, target);

const withDocument = async (app: TestApp, w: World, ws: string) => {
  const { projectId } = await withProject(app, w, ws);
  const res = await app.request({
    method: 'POST',
    url: `${P(ws)}/${projectId}/documents`,
    headers: ownerOf(w, ws).headers,
    payload: { type: 'text', name: 'd', text: 't' },
  });
  return { projectId, documentId: res.json().data.id as string };
};
const upload = multipart('d.md', Buffer.from('# D\n\ntext'), 'text/markdown');
securitySuite(() => t, {
  name: 'POST project documents/files',
  auth: 'user',
  minRole: 'admin',
  prepare: withProject,
  request: (ws, x) => ({
    method: 'POST',
    url: `${P(ws)}/${x.projectId}/documents/files`,
    headers: upload.headers,
    payload: upload.payload,
  }),
});
securitySuite(() => t, {
  name: 'DELETE project document',
  auth: 'user',
  minRole: 'admin',
  prepare: withDocument,
  request: (ws, x) => ({ method: 'DELETE', url: `${P(ws)}/${x.projectId}/documents/${x.documentId}` }),
});
