import type { ReplyOutcome } from '@parley/contract/steering';
import type { MessageRole } from '../../db/schema/index.ts';
import { smallTalk, wantsHuman } from '../../providers/llm/offline-answers.ts';

/** Below it an AI reply's answer is a weak one (docs/measuring.md "Suggestions"). */
export const WEAK_CONFIDENCE = 0.5;

export type PickMessage = {
  id: string;
  role: MessageRole;
  content: string;
  outcome: ReplyOutcome | null;
  confidence: number | null;
  withheld: boolean;
};

export type Picked = { questionMessageId: string; question: string; answerMessageId: string; answer: string };

/** An AI reply that did not answer well: declined, handed off, withheld, or below WEAK_CONFIDENCE. */
export function isWeakReply(m: PickMessage): boolean {
  if (m.role !== 'assistant') return false;
  if (m.outcome === 'declined' || m.outcome === 'handoff' || m.withheld) return true;
  return m.outcome !== 'curated' && m.confidence !== null && m.confidence < WEAK_CONFIDENCE;
}

/** Greetings, thanks and a bare request for a person are not questions to curate. */
function isQuestion(content: string): boolean {
  const text = content.trim();
  if (text === '' || smallTalk(text) !== null) return false;
  return !(wantsHuman(text) && text.split(/\s+/).length < 8);
}

/**
 * The questions of a conversation that become suggestions, oldest first: each customer message
 * that is a question and got a weak AI reply; the first of them since the last reply of a person
 * takes that person's next reply as its answer (their messages in a row, joined). One person's
 * reply answers one question, so "yes please" after a declined question does not take the
 * answer meant for the question. A question no person answered yields nothing.
 */
export function pickQuestions(messages: readonly PickMessage[]): Picked[] {
  const out: Picked[] = [];
  let asked: PickMessage | null = null;
  let candidate: PickMessage | null = null;
  let answering: Picked | null = null;
  for (const m of messages) {
    if (m.role === 'user') {
      answering = null;
      asked = isQuestion(m.content) ? m : null;
    } else if (m.role === 'assistant') {
      if (asked && !candidate && isWeakReply(m)) candidate = asked;
    } else if (m.role === 'agent' && m.content.trim() !== '') {
      if (answering) {
        answering.answer = `${answering.answer}\n\n${m.content.trim()}`;
      } else if (candidate) {
        answering = {
          questionMessageId: candidate.id,
          question: candidate.content.trim(),
          answerMessageId: m.id,
          answer: m.content.trim(),
        };
        out.push(answering);
        candidate = null;
        asked = null;
      }
    }
  }
  return out;
}
