import type { ReplyOutcome } from '@parley/contract/steering';
import type { Citation, ToolStep } from '../../db/schema/index.ts';
import type { Passage } from '../../providers/llm/index.ts';
import { smallTalk } from '../../providers/llm/offline-answers.ts';
import { passageSupport } from '../../providers/llm/passage-support.ts';

export { passageSupport };

/** The tools whose result is itself the answer's support: a lookup's rows, a ticket opened. */
const GROUNDING_TOOLS: readonly string[] = ['lookup_store', 'lookup_spreadsheet', 'create_ticket'];

type Reply = {
  question: string;
  outcome: ReplyOutcome;
  citations: Citation[];
  toolCalls: ToolStep[];
  passages: Passage[];
};

/**
 * How well the knowledge supports an AI reply, 0 to 1 (docs/measuring.md "Confidence",
 * docs/performance.md "Confidence"); null on
 * the reply that hands the conversation to a person. A decline is 0; a curated answer, a greeting
 * or thanks (nothing to know), and a reply built on a lookup or ticket tool's result are 1;
 * otherwise it is the support of the passage the reply cites first, or half the best passage's
 * when it cites none (a reply that ignored the knowledge it was given).
 */
export function replyConfidence(reply: Reply): number | null {
  if (reply.outcome === 'handoff') return null;
  if (reply.outcome === 'declined') return 0;
  if (reply.outcome === 'curated') return 1;
  if (smallTalk(reply.question) !== null) return 1;
  if (reply.toolCalls.some((s) => GROUNDING_TOOLS.includes(s.toolName) && !hasError(s.result))) return 1;
  const first = reply.citations[0];
  const cited = first ? reply.passages[first.index - 1] : undefined;
  if (cited) return round(passageSupport(cited, reply.passages));
  const best = reply.passages[0];
  return best ? round(passageSupport(best, reply.passages) / 2) : 0;
}

const hasError = (result: unknown) =>
  typeof result === 'object' && result !== null && typeof (result as { error?: unknown }).error === 'string';
const round = (x: number) => Math.round(x * 1000) / 1000;
