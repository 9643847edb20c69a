import type { GuidanceKind, ReplyOutcome, TestRunTrigger } from '@parley/contract/steering';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { assistantRef, workspaceRef } from './refs.ts';

const owned = {
  workspaceId: workspaceRef(),
  assistantId: assistantRef(),
};

/** A guidance rule of an assistant (docs/steering.md "Guidance rules"). */
export const guidanceRules = pgTable(
  'guidance_rules',
  {
    id: text('id').primaryKey(),
    ...owned,
    name: text('name').notNull(),
    kind: text('kind').$type<GuidanceKind>().notNull(),
    text: text('text').notNull(),
    triggers: jsonb('triggers').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('guidance_rules_assistant_idx').on(t.assistantId, t.createdAt, t.id)],
);

/** A curated answer (docs/steering.md "Curated answers"). */
export const curatedAnswers = pgTable(
  'curated_answers',
  {
    id: text('id').primaryKey(),
    ...owned,
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    variants: jsonb('variants').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    usedCount: integer('used_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('curated_answers_assistant_idx').on(t.assistantId, t.createdAt, t.id)],
);

export type TestExpectation = {
  outcome?: ReplyOutcome;
  contains?: string[];
  notContains?: string[];
  cites?: string[];
};

/** A test of an assistant (docs/steering.md "Tests"). */
export const assistantTests = pgTable(
  'assistant_tests',
  {
    id: text('id').primaryKey(),
    ...owned,
    name: text('name').notNull(),
    turns: jsonb('turns').$type<Array<{ content: string }>>().notNull(),
    expect: jsonb('expect').$type<TestExpectation>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('assistant_tests_assistant_idx').on(t.assistantId, t.createdAt, t.id)],
);

export type TestResult = {
  testId: string;
  name: string;
  passed: boolean;
  outcome: ReplyOutcome | null;
  reply: string;
  citations: Array<{ sourceId: string }>;
  reasons: string[];
  previouslyPassed: boolean | null;
};

export type TestRunStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * A run of an assistant's tests (docs/steering.md "Test runs"). `queued` until `runAfter`, then
 * claimed by the test-runs job (FOR UPDATE SKIP LOCKED); `claimedUntil` is its lease, which a
 * process that dies lets lapse so another picks the run up again from its first test.
 */
export const testRuns = pgTable(
  'test_runs',
  {
    id: text('id').primaryKey(),
    ...owned,
    status: text('status').$type<TestRunStatus>().notNull().default('queued'),
    trigger: text('trigger').$type<TestRunTrigger>().notNull(),
    runAfter: ts('run_after').notNull().defaultNow(),
    claimedUntil: ts('claimed_until'),
    attempts: integer('attempts').notNull().default(0),
    startedAt: ts('started_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    passed: integer('passed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    results: jsonb('results').$type<TestResult[]>().notNull().default(sql`'[]'::jsonb`),
    error: text('error'),
  },
  (t) => [
    index('test_runs_assistant_idx').on(t.assistantId, t.startedAt.desc(), t.id.desc()),
    index('test_runs_due_idx').on(t.status, t.runAfter),
    uniqueIndex('test_runs_one_queued_idx').on(t.assistantId).where(sql`status = 'queued'`),
    uniqueIndex('test_runs_one_running_idx').on(t.assistantId).where(sql`status = 'running'`),
  ],
);

export type SuggestionStatus = 'open' | 'accepted' | 'dismissed';

/** A question the AI could not answer well and a person's answer to it (docs/measuring.md "Suggestions"). */
export const suggestions = pgTable(
  'suggestions',
  {
    id: text('id').primaryKey(),
    ...owned,
    conversationId: text('conversation_id'),
    questionMessageId: text('question_message_id').notNull(),
    answerMessageId: text('answer_message_id'),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    status: text('status').$type<SuggestionStatus>().notNull().default('open'),
    curatedAnswerId: text('curated_answer_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('suggestions_assistant_idx').on(t.assistantId, t.status, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('suggestions_question_idx').on(t.questionMessageId),
  ],
);
