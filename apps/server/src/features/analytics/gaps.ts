import type { Citation, ToolStep } from '../../db/schema/index.ts';

/**
 * What makes an AI reply a knowledge gap (docs/analytics.md "Knowledge gaps"), decided when the
 * reply is stored (chat/engine.ts) and kept on it as `messages.gap_question`: the customer's
 * question, normalised, or null. Recording it then, rather than finding each reply's question when
 * the analytics are read, keeps a 90-day view to one index scan (docs/performance.md "Analytics").
 */

/** Greetings, thanks and farewells on their own: answered without citing, and not questions. */
const PLEASANTRY =
  /^(hi|hello|hey|hiya|howdy|yo|good (morning|afternoon|evening|night)|thanks|thank you|thank you very much|thx|ty|cheers|ok|okay|great|cool|bye|goodbye|see you)( there| so much| again)?$/;

export const MAX_QUESTION = 300;

/** Lower case, runs of white space made one space, no trailing `?`, `!`, `.` or space, 300 characters. */
export function normaliseQuestion(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(/[ ?!.]+$/, '')
    .slice(0, MAX_QUESTION);
}

/**
 * The gap a reply leaves, or null: a reply that was sent (not `failed`), cites no passage and
 * called no tool but `search_knowledge` (a handoff, a ticket or a lookup is an action, not missing
 * knowledge), to a customer message that is a question rather than a pleasantry.
 */
export function knowledgeGapOf(reply: {
  question: string;
  status: 'complete' | 'partial' | 'failed';
  citations: Citation[];
  toolCalls: ToolStep[];
}): string | null {
  if (reply.status === 'failed' || reply.citations.length > 0) return null;
  if (reply.toolCalls.some((s) => s.toolName !== 'search_knowledge')) return null;
  const q = normaliseQuestion(reply.question);
  return q === '' || PLEASANTRY.test(q) ? null : q;
}
