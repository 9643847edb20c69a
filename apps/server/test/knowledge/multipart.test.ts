import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * Hostile multipart bodies on every upload route: each is a 400 `bad_request:api` saying what
 * was wrong (a file over the limit: 413), never a 5xx, and nothing is stored.
 */
let t: TestApp;
let w: World;
let routes: Array<{ name: string; url: string }>;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_LIMIT_BYTES: '1024' });
  w = await createWorld(t);
  const assistantId = await createAssistant(t, w.owner, w.ws);
  const project = await t.request({
    method: 'POST',
    url: `/api/workspaces/${w.ws}/projects`,
    headers: w.owner.headers,
    payload: { name: 'Docs' },
  });
  expect(project.statusCode, project.body).toBe(201);
  routes = [
    { name: 'assistant sources', url: `/api/assistants/${assistantId}/sources/files` },
    {
      name: 'project documents',
      url: `/api/workspaces/${w.ws}/projects/${project.json().data.id}/documents/files`,
    },
  ];
});
afterAll(() => t.close());

const part = (name: string, value: string, filename?: string) =>
  `--XX\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
  `${filename ? 'Content-Type: text/plain\r\n' : ''}\r\n${value}\r\n`;
const END = '--XX--\r\n';
const MP = 'multipart/form-data; boundary=XX';

const CASES: Array<{ name: string; contentType: string; body: string; status: number; says: RegExp }> = [
  { name: 'not multipart data at all', contentType: MP, body: 'garbage', status: 400, says: /truncated/ },
  {
    name: 'no boundary in the Content-Type',
    contentType: 'multipart/form-data',
    body: part('file', 'x', 'a.txt') + END,
    status: 400,
    says: /boundary/,
  },
  {
    name: 'a truncated body',
    contentType: MP,
    body: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel',
    status: 400,
    says: /truncated/,
  },
  { name: 'no file part', contentType: MP, body: part('note', 'hello') + END, status: 400, says: /No file/ },
  {
    name: 'two files',
    contentType: MP,
    body: part('file', 'a', 'a.txt') + part('file2', 'b', 'b.txt') + END,
    status: 400,
    says: /one file/,
  },
  {
    name: 'too many parts',
    contentType: MP,
    body: Array.from({ length: 20 }, (_, i) => part(`f${i}`, 'v')).join('') + END,
    status: 400,
    says: /too many parts/,
  },
  {
    name: 'a file over the limit',
    contentType: MP,
    body: part('file', 'x'.repeat(4096), 'big.txt') + END,
    status: 413,
    says: /limited/,
  },
];

describe('hostile multipart uploads', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    for (const route of routes) {
      // Refused before anything is stored: no file, document or job row (support/stored-rows.ts).
      const res = await expectNothingStored(
        t,
        () =>
          t.request({
            method: 'POST',
            url: route.url,
            headers: { ...w.owner.headers, 'content-type': c.contentType },
            payload: c.body,
          }),
        route.name,
      );
      expect(res.statusCode, `${route.name}: ${res.body}`).toBe(c.status);
      expect(res.json().code).toBe(c.status === 413 ? 'payload_too_large:api' : 'bad_request:api');
      expect(res.json().error).toMatch(c.says);
    }
  });

  it('stored nothing, and a well-formed upload still works', async () => {
    for (const route of routes) {
      const list = await t.request({
        method: 'GET',
        url: route.url.replace(/\/files$/, ''),
        headers: w.owner.headers,
      });
      expect(list.json().total).toBe(0);
      const ok = await t.request({
        method: 'POST',
        url: route.url,
        headers: { ...w.owner.headers, 'content-type': MP },
        payload: part('file', 'Opening hours are nine to five.', 'hours.txt') + END,
      });
      expect(ok.statusCode, ok.body).toBe(201);
    }
  });
});
