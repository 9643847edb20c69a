import type {
  AssistantTest,
  CuratedAnswer,
  createAnswerBody,
  createGuidanceBody,
  createTestBody,
  Guidance,
  GuidanceKind,
  ReplyOutcome,
  TestRun,
  TestRunTrigger,
} from '@parley/contract/steering';
import { MAX_TEST_TURNS, STEERING_LIMITS } from '@parley/contract/steering-limits';
import type { z } from 'zod';
import { ApiError } from '../../api.ts';

/**
 * An assistant's steering as the API answers it (docs/steering.md; the contract's schemas,
 * packages/contract/src/steering.ts, type-only): guidance rules, curated answers, tests and runs.
 */
export type { AssistantTest, CuratedAnswer, Guidance, GuidanceKind, ReplyOutcome, TestRun, TestRunTrigger };
export type TestResult = TestRun['results'][number];
export type GuidanceInput = z.input<typeof createGuidanceBody>;
export type AnswerInput = z.input<typeof createAnswerBody>;
export type TestInput = z.input<typeof createTestBody>;

export const steeringPath = (assistantId: string, what: 'guidance' | 'answers' | 'tests' | 'test-runs') =>
  `/api/assistants/${assistantId}/${what}`;

/** The kinds in the order the form offers them, with what each does (docs/steering.md "Guidance rules"). */
export const KINDS: ReadonlyArray<{ kind: GuidanceKind; label: string; hint: string }> = [
  {
    kind: 'handoff',
    label: 'Hand off to a person',
    hint: 'When a trigger phrase is in the customer’s message, a person answers instead of the AI.',
  },
  {
    kind: 'refuse',
    label: 'Refuse',
    hint: 'When a trigger phrase is in the customer’s message, the reply is this text and nothing else.',
  },
  { kind: 'answer', label: 'How to answer', hint: 'Goes into the model’s instructions.' },
  { kind: 'tone', label: 'Tone', hint: 'Goes into the model’s instructions.' },
];
export const kindLabel = (kind: GuidanceKind) => KINDS.find((k) => k.kind === kind)?.label ?? kind;

export const OUTCOMES: ReadonlyArray<{ outcome: ReplyOutcome; label: string }> = [
  { outcome: 'answered', label: 'Answered by the model' },
  { outcome: 'curated', label: 'A curated answer' },
  { outcome: 'declined', label: 'Declined by a rule' },
  { outcome: 'handoff', label: 'Handed to a person' },
];
export const outcomeLabel = (o: ReplyOutcome | null | undefined) =>
  o ? (OUTCOMES.find((x) => x.outcome === o)?.label ?? o) : 'No reply';

export const TRIGGER_WORDS: Record<TestRunTrigger, string> = {
  manual: 'Started by hand',
  knowledge: 'After a knowledge change',
  instructions: 'After an instructions change',
  guidance: 'After a guidance change',
  answers: 'After a curated answers change',
};

/** The limits of the API, said in the forms. */
export const LIMITS = { ...STEERING_LIMITS, turns: MAX_TEST_TURNS } as const;

/** One phrase per line; blank lines left out. */
export const linesOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export type FieldErrors = Record<string, string>;

const LIMIT_WORDS = { guidance: 'guidance rules', answers: 'curated answers', tests: 'tests' } as const;

/**
 * The API's 400 details at the form's fields: `turns.2.content` and `expect.contains.0` go to
 * `turns` and `expect.contains`; the limit of an assistant's rules, answers or tests
 * (`{"guidance": "at most 100"}`: no body field has those names) and anything else to `_`, the whole form.
 */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.details) return {};
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(error.details)) {
    if (key in LIMIT_WORDS) {
      const what = LIMIT_WORDS[key as keyof typeof LIMIT_WORDS];
      out._ = `This assistant already has the most ${what} it can have (${value}). Delete one to add another.`;
      continue;
    }
    const parts = key.split('.');
    const field =
      fields.find((f) => key === f || key.startsWith(`${f}.`)) ?? fields.find((f) => f === parts[0]) ?? '_';
    const n = parts.find((p) => /^\d+$/.test(p));
    const where = n === undefined ? '' : ` (${field === 'turns' ? 'message' : 'line'} ${Number(n) + 1})`;
    out[field] ??= `${value}${where}`;
  }
  return out;
}

/** The words of an error shown above a form whose fields carry their own messages. */
export function formError(error: unknown, errors: FieldErrors): unknown {
  if (errors._) return new Error(errors._);
  if (error instanceof ApiError && error.status === 400 && Object.values(errors).some(Boolean))
    return new Error('Some fields are not valid: see the messages at each field.');
  return error;
}
