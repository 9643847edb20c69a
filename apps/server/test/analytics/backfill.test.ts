import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { CITED, daysAgo, HANDOFF_TOOL, SEARCH_TOOL, seedConversation } from './helpers.ts';

/**
 * Migration 0012 fills `gap_question` for replies stored before it: its SQL must say what
 * features/analytics/gaps.ts says (docs/analytics.md "Knowledge gaps"). The seed records each
 * reply's gap with gaps.ts; the column is then emptied and the migration's UPDATE run again.
 */
let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  const assistantId = await createAssistant(t, w.owner, w.ws);
  await seedConversation(t, w.ws, assistantId, {
    channel: 'widget',
    at: daysAgo(1),
    turns: [
      { question: '  Do you   SHIP to Mars?! ', reply: {} },
      { question: 'Thanks!', reply: {} },
      { question: 'Good morning', reply: {} },
      { question: 'What is the refund policy?', reply: { citations: CITED } },
      { question: 'I want a person', reply: { toolCalls: HANDOFF_TOOL } },
      { question: 'Is there a student discount?', reply: { toolCalls: SEARCH_TOOL } },
      { question: 'Where is my parcel?', reply: { status: 'failed' } },
      { question: 'Ça coûte combien, la livraison ?', reply: { status: 'partial' } },
      { question: 'x'.repeat(400), reply: {} },
    ],
  });
});
afterAll(() => t.close());

const replies = () =>
  queryRows<{ id: string; gap: string | null }>(
    t.ctx.db,
    sql`select id, gap_question as gap from messages where role = 'assistant' order by created_at, id`,
  );

describe('migration 0012: the backfill of gap_question', () => {
  it('gives every earlier reply the gap the chat engine would have recorded', async () => {
    const recorded = await replies();
    expect(recorded.map((r) => r.gap)).toEqual([
      'do you ship to mars',
      null,
      null,
      null,
      null,
      'is there a student discount',
      null,
      'ça coûte combien, la livraison',
      'x'.repeat(300),
    ]);
    await t.ctx.db.execute(sql`update messages set gap_question = null`);
    const file = readFileSync(new URL('../../src/db/migrations/0012_analytics.sql', import.meta.url), 'utf8');
    const update = file.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "messages"'));
    expect(update).toBeDefined();
    await t.ctx.db.execute(sql.raw(update!));
    expect(await replies()).toEqual(recorded);
  });
});
