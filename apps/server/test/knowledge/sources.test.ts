import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeChunks, sourceFiles } from '../../src/db/schema/index.ts';
import { countOrphanChunks } from '../../src/features/knowledge/sources/sources.repo.ts';
import { makeDocx, makePdf } from '../support/documents.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion, getSource, multipart, search } from './helpers.ts';

let t: TestApp;
let w: World;
let asst: string;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_LIMIT_BYTES: String(64 * 1024) });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(() => t.close());

const upload = (name: string, content: Buffer, mime: string, headers = w.owner.headers) => {
  const body = multipart(name, content, mime);
  return t.request({
    method: 'POST',
    url: `/api/assistants/${asst}/sources/files`,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
};

describe('text and Q&A sources', () => {
  it('ingests text from pending to ready and finds it by search with scores', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'text',
      name: 'Refund policy',
      text: '# Refunds\n\nRefunds are processed within five business days.\n\n# Shipping\n\nWe ship to 40 countries.',
    });
    expect(src.status).toBe('pending');
    await drainIngestion(t);
    const ready = await getSource(t, w.owner, asst, src.id);
    expect(ready).toMatchObject({ status: 'ready', error: null, chunkCount: 2 });
    const hits = await search(t, w.member, asst, 'how long do refunds take?');
    expect(hits[0]).toMatchObject({ sourceId: src.id, heading: 'Refunds' });
    expect(hits[0]!.content).toContain('five business days');
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('keeps each Q&A pair whole as one chunk', async () => {
    const src = await addSource(t, w.admin, asst, {
      type: 'qa',
      pairs: [
        { question: 'Do you have a phone number?', answer: 'Yes: +1 555 0100, weekdays 9 to 5.' },
        { question: 'Where is the warehouse?', answer: 'In Rotterdam.' },
      ],
    });
    await drainIngestion(t);
    expect((await getSource(t, w.owner, asst, src.id)).chunkCount).toBe(2);
    const hits = await search(t, w.owner, asst, 'phone number');
    expect(hits[0]!.content).toBe('Q: Do you have a phone number?\nA: Yes: +1 555 0100, weekdays 9 to 5.');
  });

  it('validates source bodies', async () => {
    const cases = [
      { type: 'text', name: 'x' },
      { type: 'text', name: '', text: 'y' },
      { type: 'qa', pairs: [] },
      { type: 'qa', pairs: [{ question: 'q' }] },
      { type: 'website', url: 'ftp://example.com' },
      { type: 'website', url: 'https://example.com', maxPages: 0 },
      { type: 'nope' },
      { type: 'text', name: 'x', text: 'y', extra: 1 },
      [],
    ];
    for (const payload of cases) {
      const res = await t.request({
        method: 'POST',
        url: `/api/assistants/${asst}/sources`,
        headers: w.owner.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('file sources', () => {
  it('ingests a PDF and a DOCX', async () => {
    const pdf = await upload('guide.pdf', makePdf(['Our warranty lasts two years.']), 'application/pdf');
    expect(pdf.statusCode).toBe(201);
    expect(pdf.json().data).toMatchObject({ type: 'file', name: 'guide.pdf', status: 'pending' });
    const docx = await upload(
      'returns.docx',
      await makeDocx('Returns', 'Returns are free within 30 days.'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(docx.statusCode).toBe(201);
    await drainIngestion(t);
    expect((await getSource(t, w.owner, asst, pdf.json().data.id)).status).toBe('ready');
    expect((await search(t, w.owner, asst, 'warranty'))[0]!.content).toContain('two years');
    expect((await search(t, w.owner, asst, 'returns free'))[0]!.heading).toBe('Returns');
  });

  it('marks a corrupt PDF failed with a readable error', async () => {
    const res = await upload(
      'broken.pdf',
      Buffer.from('%PDF-1.7 this is not really a pdf'),
      'application/pdf',
    );
    await drainIngestion(t);
    const src = await getSource(t, w.owner, asst, res.json().data.id);
    expect(src.status).toBe('failed');
    expect(src.error).toMatch(/PDF/);
    expect(src.chunkCount).toBe(0);
  });

  it('refuses an unsupported type with 400 and a file over the limit with 413', async () => {
    const exe = await upload('setup.exe', Buffer.from('MZ'), 'application/octet-stream');
    expect(exe.statusCode).toBe(400);
    const big = await upload('big.txt', Buffer.alloc(65 * 1024, 'a'), 'text/plain');
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large:api');
    const notMultipart = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/sources/files`,
      headers: w.owner.headers,
      payload: { file: 'x' },
    });
    expect(notMultipart.statusCode).toBe(400);
  });
});

describe('sync and delete', () => {
  it('re-syncs to a new generation and deletes without leaving chunks', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'text',
      name: 'Hours',
      text: 'We open at nine o clock sharp.',
    });
    await drainIngestion(t);
    const before = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, src.id));
    const sync = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/sources/${src.id}/sync`,
      headers: w.owner.headers,
    });
    expect(sync.statusCode).toBe(202);
    expect(sync.json().data.status).toBe('pending');
    await drainIngestion(t);
    const after = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, src.id));
    expect(after).toHaveLength(before.length);
    expect(after[0]!.generation).toBe(before[0]!.generation + 1);

    const del = await t.request({
      method: 'DELETE',
      url: `/api/assistants/${asst}/sources/${src.id}`,
      headers: w.owner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(
      await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, src.id)),
    ).toHaveLength(0);
    expect((await search(t, w.owner, asst, 'nine o clock')).some((h) => h.sourceId === src.id)).toBe(false);
    expect(await countOrphanChunks(t.ctx.db)).toBe(0);
  });

  it('deleting the assistant removes its sources, files and chunks', async () => {
    const other = await createAssistant(t, w.owner, w.ws);
    await addSource(t, w.owner, other, { type: 'text', name: 'T', text: 'Temporary knowledge.' });
    await drainIngestion(t);
    await t.request({ method: 'DELETE', url: `/api/assistants/${other}`, headers: w.owner.headers });
    expect(
      await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.namespace, other)),
    ).toHaveLength(0);
    expect(await countOrphanChunks(t.ctx.db)).toBe(0);
    expect((await t.ctx.db.select().from(sourceFiles)).length).toBeGreaterThanOrEqual(0);
  });

  it('lists sources as an offset page, newest first', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/sources?limit=2`,
      headers: w.guest.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ limit: 2, offset: 0 });
    expect(res.json().data).toHaveLength(2);
    expect(res.json().total).toBeGreaterThan(2);
  });
});

describe('the running worker', () => {
  it('picks up a new source by itself and reports progress to ready', async () => {
    const worker = t.startJobs(['ingestion'], { ingestion: 50 });
    try {
      const src = await addSource(t, w.owner, asst, {
        type: 'text',
        name: 'Live',
        text: 'Gift cards never expire.',
      });
      await waitFor(
        async () => (await getSource(t, w.owner, asst, src.id)).status === 'ready',
        15_000,
        'the source ready',
      );
      expect((await search(t, w.owner, asst, 'do gift cards expire'))[0]!.content).toContain('never expire');
    } finally {
      await worker.stop();
    }
  });
});
