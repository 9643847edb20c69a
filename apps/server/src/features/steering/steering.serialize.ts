import type { AssistantTest, CuratedAnswer, Guidance } from '@parley/contract/steering';
import type { AssistantTestRow, CuratedAnswerRow, GuidanceRow } from './steering.repo.ts';

/** The public shapes of an assistant's steering (docs/steering.md). */

export const toGuidance = (r: GuidanceRow): Guidance => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  text: r.text,
  triggers: r.triggers,
  enabled: r.enabled,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toCuratedAnswer = (r: CuratedAnswerRow): CuratedAnswer => ({
  id: r.id,
  question: r.question,
  answer: r.answer,
  variants: r.variants,
  usedCount: r.usedCount,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toTest = (r: AssistantTestRow): AssistantTest => ({
  id: r.id,
  name: r.name,
  turns: r.turns,
  expect: r.expect,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
