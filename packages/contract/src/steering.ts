import { z } from 'zod';
import { MAX_TEST_TURNS } from './steering-limits.ts';

/**
 * Steering an assistant (docs/steering.md): guidance rules, curated answers, tests and their runs,
 * under `/api/assistants/{assistantId}`.
 */

export const GUIDANCE_KINDS = ['handoff', 'refuse', 'answer', 'tone'] as const;
export const REPLY_OUTCOMES = ['answered', 'declined', 'handoff', 'curated'] as const;
export const TEST_RUN_TRIGGERS = ['manual', 'knowledge', 'instructions', 'guidance', 'answers'] as const;

export { MAX_TEST_TURNS, STEERING_LIMITS } from './steering-limits.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
const phrases = (max: number, each: number) => z.array(text(each)).max(max);

export const guidanceSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(GUIDANCE_KINDS),
  text: z.string(),
  triggers: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const createGuidanceBody = z.strictObject({
  name: text(100),
  kind: z.enum(GUIDANCE_KINDS),
  text: text(2000),
  triggers: phrases(50, 100).default([]),
  enabled: z.boolean().default(true),
});

export const updateGuidanceBody = z.strictObject({
  name: text(100).optional(),
  kind: z.enum(GUIDANCE_KINDS).optional(),
  text: text(2000).optional(),
  triggers: phrases(50, 100).optional(),
  enabled: z.boolean().optional(),
});

export const curatedAnswerSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  variants: z.array(z.string()),
  usedCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const createAnswerBody = z.strictObject({
  question: text(500),
  answer: text(4000),
  variants: phrases(20, 500).default([]),
});

export const updateAnswerBody = z.strictObject({
  question: text(500).optional(),
  answer: text(4000).optional(),
  variants: phrases(20, 500).optional(),
});

const expectation = z.strictObject({
  outcome: z.enum(REPLY_OUTCOMES).optional(),
  contains: phrases(20, 500).optional(),
  notContains: phrases(20, 500).optional(),
  cites: z.array(z.string().min(1).max(100)).max(20).optional(),
});

const turns = z
  .array(z.strictObject({ content: text(8000) }))
  .min(1)
  .max(MAX_TEST_TURNS);

export const testSchema = z.object({
  id: z.string(),
  name: z.string(),
  turns: z.array(z.object({ content: z.string() })),
  expect: z.object({
    outcome: z.enum(REPLY_OUTCOMES).optional(),
    contains: z.array(z.string()).optional(),
    notContains: z.array(z.string()).optional(),
    cites: z.array(z.string()).optional(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const createTestBody = z.strictObject({ name: text(200), turns, expect: expectation.default({}) });

export const updateTestBody = z.strictObject({
  name: text(200).optional(),
  turns: turns.optional(),
  expect: expectation.optional(),
});

/** A test made from a real conversation: its customer messages become the turns (docs/steering.md). */
export const testFromConversationBody = z.strictObject({
  conversationId: z.string().min(1).max(100),
  name: text(200).optional(),
});

export const testResultSchema = z.object({
  testId: z.string(),
  name: z.string(),
  passed: z.boolean(),
  outcome: z.enum(REPLY_OUTCOMES).nullable(),
  reply: z.string(),
  citations: z.array(z.object({ sourceId: z.string() })),
  reasons: z.array(z.string()),
  /** What this test did in the previous finished run: `null` when it was not in it. */
  previouslyPassed: z.boolean().nullable(),
});

export const testRunSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  trigger: z.enum(TEST_RUN_TRIGGERS),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  passed: z.number().int(),
  failed: z.number().int(),
  results: z.array(testResultSchema),
  /** Why a `failed` run could not be played (it ran out of attempts); null otherwise. */
  error: z.string().nullable(),
});

export type Guidance = z.output<typeof guidanceSchema>;
export type GuidanceKind = (typeof GUIDANCE_KINDS)[number];
export type CuratedAnswer = z.output<typeof curatedAnswerSchema>;
export type ReplyOutcome = (typeof REPLY_OUTCOMES)[number];
export type AssistantTest = z.output<typeof testSchema>;
export type TestRun = z.output<typeof testRunSchema>;
export type TestRunTrigger = (typeof TEST_RUN_TRIGGERS)[number];
