import type { AppContext } from '../../context.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import {
  CURATED_THRESHOLD,
  containsPhrase,
  normalise,
  type PreparedQuestion,
  prepareQuestion,
  similarity,
} from './match.ts';
import { allItems, type CuratedAnswerRow, type GuidanceRow } from './steering.repo.ts';

/** An assistant's enabled rules and its curated answers, ready to compare messages with. */
export type Steering = {
  rules: Array<GuidanceRow & { phrases: string[] }>;
  answers: Array<{ row: CuratedAnswerRow; questions: PreparedQuestion[] }>;
};

const EMPTY: Steering = { rules: [], answers: [] };
const MAX_CACHED = 2_000;

/**
 * Steering read once per app and kept under the assistant's `steeringVersion` (`ctx.steering`),
 * which every change bumps in its transaction: a turn costs no query while nothing changed, and a
 * change made through any process is seen by the next turn of every process (the assistant row is
 * read per turn).
 */
export type SteeringCache = Map<string, { version: number; steering: Promise<Steering> }>;

export function steeringFor(ctx: AppContext, assistant: AssistantRow): Promise<Steering> {
  const cache = ctx.steering;
  const hit = cache.get(assistant.id);
  if (hit && hit.version >= assistant.steeringVersion) return hit.steering;
  // A new assistant that never had a rule or an answer reads nothing.
  if (assistant.steeringVersion === 0) return Promise.resolve(EMPTY);
  const steering = loadSteering(ctx, assistant);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(assistant.id, { version: assistant.steeringVersion, steering });
  // A failed read is not kept: the next turn reads again.
  steering.catch(() => {
    if (cache.get(assistant.id)?.steering === steering) cache.delete(assistant.id);
  });
  return steering;
}

async function loadSteering(ctx: AppContext, assistant: AssistantRow): Promise<Steering> {
  const owner = { workspaceId: assistant.workspaceId, assistantId: assistant.id };
  const [rules, answers] = await Promise.all([
    allItems(ctx.db, 'guidance', owner),
    allItems(ctx.db, 'answers', owner),
  ]);
  return {
    rules: rules.filter((r) => r.enabled).map((r) => ({ ...r, phrases: r.triggers.map(normalise) })),
    answers: answers.map((row) => ({ row, questions: [row.question, ...row.variants].map(prepareQuestion) })),
  };
}

/** What answers a customer's message before any model is asked (docs/steering.md "Order"). */
export type SteeringDecision =
  | { kind: 'handoff'; rule: GuidanceRow }
  | { kind: 'refuse'; rule: GuidanceRow }
  | { kind: 'curated'; answer: CuratedAnswerRow }
  | { kind: 'model' };

/**
 * Handoff rules first, then refuse rules, each in the order they were written, then the curated
 * answer most like the message (at or above CURATED_THRESHOLD; an exact match after normalising
 * always counts), then the model.
 */
export function decide(steering: Steering, message: string): SteeringDecision {
  if (steering.rules.length === 0 && steering.answers.length === 0) return { kind: 'model' };
  const text = normalise(message);
  for (const kind of ['handoff', 'refuse'] as const) {
    const rule = steering.rules.find(
      (r) => r.kind === kind && r.phrases.some((p) => containsPhrase(text, p)),
    );
    if (rule) return { kind, rule };
  }
  const asked = prepareQuestion(message);
  if (asked.text === '') return { kind: 'model' };
  let best: { answer: CuratedAnswerRow; score: number } | undefined;
  for (const { row, questions } of steering.answers) {
    for (const q of questions) {
      if (q.text === '') continue;
      const score = q.text === asked.text ? 1 : similarity(asked, q);
      if (score >= CURATED_THRESHOLD && (!best || score > best.score)) best = { answer: row, score };
    }
  }
  return best ? { kind: 'curated', answer: best.answer } : { kind: 'model' };
}
