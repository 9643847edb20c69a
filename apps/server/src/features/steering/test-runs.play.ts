import type { Plan } from '@parley/contract/plans';
import type { ReplyOutcome } from '@parley/contract/steering';
import { generateText, stepCountIs } from 'ai';
import type { AppContext } from '../../context.ts';
import type { TestExpectation, TestResult } from '../../db/schema/index.ts';
import { modelFor } from '../../providers/llm/index.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import { readContext } from '../chat/context.ts';
import { PassageBook } from '../chat/passages.ts';
import { systemPrompt, toModelMessages } from '../chat/prompt.ts';
import { buildTools } from '../chat/tools.ts';
import type { HistoryMessage } from '../chat/turn.ts';
import { afterHandoffTool, handoffNotice } from '../conversations/handoff.ts';
import { modelOutcome } from './outcome.ts';
import { decide, type Steering } from './steering.cache.ts';
import type { AssistantTestRow } from './steering.repo.ts';

/** What one test needs that is the same for every test of a run. */
export type RunSetting = {
  ctx: AppContext;
  assistant: AssistantRow;
  plan: Plan;
  steering: Steering;
  /** The names of the assistant's sources, for reasons that name a source. */
  sourceNames: Map<string, string>;
};

type Reply = { text: string; outcome: ReplyOutcome; sourceIds: string[] };

const MAX_STEPS = 4;

/**
 * Plays one test as a conversation held in memory (docs/steering.md "Test runs"): each turn goes
 * through the guidance rules, the curated answers and the model as a customer's would, with the
 * assistant's knowledge and tools, but nothing is stored: no conversation, message, event, credit
 * or analytics row, and the tools that would write only say what they would have done. After a
 * handoff the AI says nothing more, so a later turn keeps the handoff as its last reply.
 */
export async function playTest(s: RunSetting, test: AssistantTestRow): Promise<TestResult> {
  const history: HistoryMessage[] = [];
  let last: Reply | undefined;
  try {
    for (const turn of test.turns) {
      history.push({ role: 'user', content: turn.content });
      if (last?.outcome === 'handoff') continue;
      last = await replyTo(s, turn.content, history);
      history.push({ role: 'assistant', content: last.text });
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return result(
      test,
      { text: '', outcome: 'answered', sourceIds: [] },
      [`The assistant could not answer: ${why}`],
      null,
    );
  }
  const reply = last ?? { text: '', outcome: 'answered' as const, sourceIds: [] };
  return result(test, reply, judge(test.expect, reply, s.sourceNames), reply.outcome);
}

const result = (
  test: AssistantTestRow,
  reply: Reply,
  reasons: string[],
  outcome: ReplyOutcome | null,
): TestResult => ({
  testId: test.id,
  name: test.name,
  passed: reasons.length === 0,
  outcome,
  reply: reply.text,
  citations: [...new Set(reply.sourceIds)].map((sourceId) => ({ sourceId })),
  reasons,
  previouslyPassed: null,
});

async function replyTo(s: RunSetting, content: string, history: HistoryMessage[]): Promise<Reply> {
  const decision = decide(s.steering, content);
  // The customer's side of a handoff as it would read now (outside business hours: when a person is back).
  if (decision.kind === 'handoff')
    return { text: await handoffNotice(s.ctx, s.assistant.workspaceId), outcome: 'handoff', sourceIds: [] };
  if (decision.kind === 'refuse') return { text: decision.rule.text, outcome: 'declined', sourceIds: [] };
  if (decision.kind === 'curated') return { text: decision.answer.answer, outcome: 'curated', sourceIds: [] };
  const { ctx, assistant } = s;
  const { chunks, realtime } = await readContext(ctx, assistant, content);
  const book = new PassageBook();
  book.add(chunks);
  let handedOff = false;
  const out = await generateText({
    model: modelFor(ctx.config.ai, { passages: book.passages }),
    system: systemPrompt(assistant, book.passages, s.steering.rules),
    messages: toModelMessages(history),
    tools: buildTools({
      ctx,
      assistant,
      conversation: null,
      plan: s.plan,
      book,
      realtime,
      onHandoff: () => {
        handedOff = true;
      },
    }),
    stopWhen: stepCountIs(MAX_STEPS),
    temperature: assistant.temperature,
    maxOutputTokens: assistant.maxTokens,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(ctx.config.ai.timeoutMs),
  });
  const after = handedOff ? await afterHandoffTool(ctx, assistant.workspaceId, out.text) : null;
  return {
    text: out.text + (after ?? ''),
    outcome: modelOutcome(handedOff, out.text),
    sourceIds: book.citedBy(out.text).map((c) => c.sourceId),
  };
}

/** One reason, in words, for each expectation the reply does not meet; none when it passes. */
export function judge(expect: TestExpectation, reply: Reply, sourceNames: Map<string, string>): string[] {
  const reasons: string[] = [];
  const lower = reply.text.toLocaleLowerCase();
  if (expect.outcome && expect.outcome !== reply.outcome)
    reasons.push(`Expected the outcome "${expect.outcome}", but the reply was "${reply.outcome}".`);
  for (const phrase of expect.contains ?? [])
    if (!lower.includes(phrase.toLocaleLowerCase())) reasons.push(`The reply does not contain "${phrase}".`);
  for (const phrase of expect.notContains ?? [])
    if (lower.includes(phrase.toLocaleLowerCase()))
      reasons.push(`The reply contains "${phrase}", which it must not.`);
  for (const sourceId of expect.cites ?? []) {
    if (reply.sourceIds.includes(sourceId)) continue;
    const name = sourceNames.get(sourceId);
    reasons.push(
      name
        ? `The reply does not cite the source "${name}" (${sourceId}).`
        : `The reply does not cite the source ${sourceId}, which the assistant no longer has.`,
    );
  }
  return reasons;
}
