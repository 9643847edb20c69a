import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { reembedStep } from '../../src/features/knowledge/retrieval/reembed.ts';
import { createSemanticEmbedder } from '../../src/providers/embeddings/semantic.ts';
import type { Embedder } from '../../src/providers/embeddings/types.ts';
import { startEmbeddingsServer } from '../support/embeddings-server.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion } from './helpers.ts';

/**
 * With an OpenAI-compatible embeddings model (a stand-in speaking its protocol), the hybrid
 * ranking does at least as well as the model alone (docs/knowledge.md "Retrieval"), and a change
 * of embedder re-embeds stored chunks in the background (docs/knowledge.md "Changing the embedder").
 */
const CONCEPTS: Record<string, string> = {
  refund: 'refund',
  refunds: 'refund',
  money: 'refund',
  reimbursement: 'refund',
  parcel: 'delivery',
  arrive: 'delivery',
  delivery: 'delivery',
  shipping: 'delivery',
  password: 'password',
  login: 'password',
  firmware: 'firmware',
  update: 'firmware',
  router: 'router',
  camera: 'camera',
};
const FAQS = [
  ['How do I get a refund?', 'Refunds go to your card within 5 days.'],
  ['When will my parcel arrive?', 'It takes 3 to 7 days.'],
  ['How do I reset my password?', 'Use the link on the sign in page.'],
  ['How do I update the firmware of the X200 router?', 'Open the app and choose Update.'],
  ['How do I update the firmware of the Z900 camera?', 'Hold the button for ten seconds.'],
] as const;
/** Questions and the FAQ (index) that answers each: synonyms the words miss, codes the model misses. */
const QUESTIONS: Array<[string, number]> = [
  ['can I have my money back', 0],
  ['reimbursement', 0],
  ['how long is shipping', 1],
  ['forgot my login', 2],
  ['X200 firmware', 3],
  ['firmware for the Z900', 4],
  ['new firmware X200', 3],
  ['Z900 update', 4],
];

let t: TestApp;
let w: World;
let model: Awaited<ReturnType<typeof startEmbeddingsServer>>;
beforeAll(async () => {
  model = await startEmbeddingsServer(CONCEPTS, 64);
  t = await createTestApp({
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: model.url,
    EMBEDDINGS_MODEL: 'stand-in',
    EMBEDDINGS_DIMENSIONS: '64',
  });
  w = await createWorld(t);
});
afterAll(async () => {
  await t.close();
  await model.close();
});

type Hit = { sourceId: string; lexicalRank: number | null; vectorRank: number | null; relevance: number };
async function search(assistantId: string, q: string): Promise<Hit[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/search?q=${encodeURIComponent(q)}&k=10`,
    headers: w.owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function faqAssistant() {
  const id = await createAssistant(t, w.owner, w.ws);
  const sources: string[] = [];
  for (const [question, answer] of FAQS)
    sources.push(
      (await addSource(t, w.owner, id, { type: 'qa', name: 'FAQ', pairs: [{ question, answer }] })).id,
    );
  await drainIngestion(t);
  return { id, sources };
}

describe('hybrid ranking with an embeddings model', () => {
  it('puts the right FAQ first at least as often as the model alone', async () => {
    const { id, sources } = await faqAssistant();
    let hybrid = 0;
    let vectorOnly = 0;
    for (const [q, right] of QUESTIONS) {
      const hits = await search(id, q);
      if (hits[0]?.sourceId === sources[right]) hybrid++;
      const byVector = hits
        .filter((h) => h.vectorRank !== null)
        .sort((a, b) => a.vectorRank! - b.vectorRank!);
      if (byVector[0]?.sourceId === sources[right]) vectorOnly++;
    }
    expect(model.requests.length).toBeGreaterThan(0);
    expect(hybrid).toBeGreaterThanOrEqual(vectorOnly);
    // the words settle what the model cannot tell apart (X200 / Z900), the model finds synonyms
    expect(hybrid).toBe(QUESTIONS.length);
    expect(vectorOnly).toBeLessThan(QUESTIONS.length);
  });

  it('re-embeds stored chunks when the embedder changes, showing progress, across a dimension change', async () => {
    const { id, sources } = await faqAssistant();
    const before = t.ctx.embedder;
    // a restart with another configuration, as far as the stored chunks can tell
    const ctx: { embedder: Embedder } = t.ctx;
    ctx.embedder = createSemanticEmbedder();
    try {
      const list = async () =>
        (
          await t.request({ method: 'GET', url: `/api/assistants/${id}/sources`, headers: w.owner.headers })
        ).json().data as Array<{ id: string; reindexPending: number }>;
      expect((await list()).map((s) => s.reindexPending)).toEqual(sources.map(() => 1));
      // meanwhile the words still find the chunks; no 64-dimension vector is compared with a 384 one
      const during = await search(id, 'X200 firmware');
      expect(during[0]?.sourceId).toBe(sources[3]);
      expect(during.every((h) => h.vectorRank === null)).toBe(true);
      while (await reembedStep(t.ctx, 2));
      expect((await list()).every((s) => s.reindexPending === 0)).toBe(true);
      const rows = await queryRows<{ embedder: string; dims: number; n: number }>(
        t.ctx.db,
        sql`select embedder, dims, count(*)::int as n from knowledge_chunks where namespace = ${id} group by 1, 2`,
      );
      expect(rows).toEqual([{ embedder: ctx.embedder.id, dims: 384, n: FAQS.length }]);
      const after = await search(id, 'getting a refund');
      expect(after[0]?.sourceId).toBe(sources[0]);
      expect(after[0]?.vectorRank).toBe(1);
    } finally {
      ctx.embedder = before;
    }
  });
});
