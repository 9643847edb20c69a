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
import { i18n } from '../../i18n/index.ts';

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

/** The kinds in the order the form offers them; what each does is in the catalog (docs/steering.md "Guidance rules"). */
export const KINDS: readonly GuidanceKind[] = ['handoff', 'refuse', 'answer', 'tone'];
export const kindLabel = (kind: GuidanceKind) => i18n.t(`steering:kinds.${kind}.label`);
export const kindHint = (kind: GuidanceKind) => i18n.t(`steering:kinds.${kind}.hint`);

/** The outcomes in the order the test form offers them. */
export const OUTCOMES: readonly ReplyOutcome[] = ['answered', 'curated', 'declined', 'handoff'];
export const outcomeLabel = (o: ReplyOutcome | null | undefined) =>
  i18n.t(`steering:outcomes.${o ?? 'none'}`);

/** What started a run, in words. */
export const triggerWords = (trigger: TestRunTrigger) => i18n.t(`steering:triggers.${trigger}`);

/** The limits of the API, said in the forms. */
export const LIMITS = { ...STEERING_LIMITS, turns: MAX_TEST_TURNS } as const;

/** One phrase per line; blank lines left out. */
export const linesOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export type FieldErrors = Record<string, string>;

/** The body-less details of an assistant's limits: `{"guidance": "at most 100"}`. */
const LIMITED = ['guidance', 'answers', 'tests'] as const;

/**
 * The API's 400 details at the form's fields: `turns.2.content` and `expect.contains.0` go to
 * `turns` and `expect.contains`; the limit of an assistant's rules, answers or tests
 * (`{"guidance": "at most 100"}`: no body field has those names) and anything else to `_`, the whole form.
 */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.details) return {};
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(error.details)) {
    const limited = LIMITED.find((l) => l === key);
    if (limited) {
      const max = Number(/\d+/.exec(String(value))?.[0] ?? LIMITS[limited]);
      out._ = i18n.t(`steering:errors.limit.${limited}`, { max });
      continue;
    }
    const parts = key.split('.');
    const field =
      fields.find((f) => key === f || key.startsWith(`${f}.`)) ?? fields.find((f) => f === parts[0]) ?? '_';
    const n = parts.find((p) => /^\d+$/.test(p));
    const message = String(value);
    out[field] ??=
      n === undefined
        ? message
        : i18n.t(field === 'turns' ? 'steering:errors.atMessage' : 'steering:errors.atLine', {
            error: message,
            n: Number(n) + 1,
          });
  }
  return out;
}

/** The words of an error shown above a form whose fields carry their own messages. */
export function formError(error: unknown, errors: FieldErrors): unknown {
  if (errors._) return new Error(errors._);
  if (error instanceof ApiError && error.status === 400 && Object.values(errors).some(Boolean))
    return new Error(i18n.t('steering:errors.fields'));
  return error;
}
