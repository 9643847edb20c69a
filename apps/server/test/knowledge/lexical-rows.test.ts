import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import type { ChunkRow } from '../../src/features/knowledge/retrieval/lexical-cache.ts';
import { namespaceVersions } from '../../src/features/knowledge/retrieval/vector-index.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion, search } from './helpers.ts';

/**
 * docs/knowledge.md "Lexical ranking": the chunks' rows are held with a namespace's terms, so a
 * reply's passages come from memory; they are the database's rows of the namespace's version, and
 * a change (a new version) is seen on the next search, never an old row.
 */
let t: TestApp;
let w: World;
let assistantId: string;
let namespace: string;

type Row = Omit<ChunkRow, 'namespace'>;
const current = (ns: string) =>
  queryRows<Row>(
    t.ctx.db,
    sql`select c.id, c.source_id, c.heading, c.title, c.url, c.position, c.content, c.language
          from knowledge_chunks c
          join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
         where c.namespace = ${ns} order by c.id`,
  );

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  assistantId = await createAssistant(t, w.owner, w.ws);
  const pairs = [
    { question: 'How long do refunds take?', answer: 'Refunds reach your card within five business days.' },
    { question: 'Where is the shop?', answer: 'On the high street, next to the station.' },
    { question: 'Do you ship abroad?', answer: 'We ship to every country in the European Union.' },
  ];
  await addSource(t, w.owner, assistantId, { type: 'qa', name: 'FAQ', pairs });
  await drainIngestion(t);
  const [row] = await queryRows<{ namespace: string }>(
    t.ctx.db,
    sql`select distinct namespace from knowledge_chunks where workspace_id = ${w.ws}`,
  );
  namespace = row!.namespace;
});
afterAll(() => t.close());

describe('the rows held with the terms', () => {
  it("are the database's rows of the namespace's version, for the ids asked (unknown ids left out)", async () => {
    await search(t, w.owner, assistantId, 'refund');
    const versions = await namespaceVersions(t.ctx, [namespace]);
    const rows = await current(namespace);
    expect(rows.length).toBe(3);
    const held = t.ctx.vectors.lexical!.rowsOf([namespace], versions, [
      ...rows.map((r) => r.id),
      'chk_unknown',
    ]);
    expect(held?.map(({ namespace: ns, ...r }) => ({ ns, ...r }))).toEqual(
      rows.map((r) => ({ ns: namespace, ...r, position: Number(r.position) })),
    );
    // Not held at another version: the caller reads the database.
    const stale = new Map([[namespace, (versions.get(namespace) ?? 0) - 1]]);
    expect(t.ctx.vectors.lexical!.rowsOf([namespace], stale, [rows[0]!.id])).toBeNull();
  });

  it("a reply's passages are the stored text, and a change is seen on the next search", async () => {
    const before = await search(t, w.owner, assistantId, 'How long do refunds take?');
    const stored = new Map((await current(namespace)).map((r) => [r.content, r]));
    expect(before[0]?.content).toContain('five business days');
    for (const hit of before) expect(stored.has(hit.content)).toBe(true);
    await addSource(t, w.owner, assistantId, {
      type: 'qa',
      name: 'Refund policy',
      pairs: [
        { question: 'Can refunds go to a gift card?', answer: 'Yes: a refund can be paid as a gift card. ✓' },
      ],
    });
    await drainIngestion(t);
    const after = await search(t, w.owner, assistantId, 'gift card refunds');
    expect(after[0]?.content).toContain('gift card. ✓');
    const now = new Set((await current(namespace)).map((r) => r.content));
    for (const hit of after) expect(now.has(hit.content)).toBe(true);
  });
});
