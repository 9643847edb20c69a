import type { Passage } from './types.ts';

/**
 * How likely a passage answers the question, 0 to 1, from its relevance (retrieval.ts
 * `relevance`) and its lead over the best passage of another source: one FAQ far ahead of the
 * rest is a confident pick; two FAQs neck and neck are a coin toss, however relevant both look.
 * Another passage of the same source is no rival (a document's chunks are one text), unless it is
 * a Q&A pair. The AI reply's confidence (chat/confidence.ts) and the offline responder's decision to answer
 * (offline-answers.ts) both use it, so an answered question and its confidence agree.
 *
 * A logistic model of the two, fitted on the quality benchmark (docs/performance.md
 * "Confidence"): each question's best passage, right or wrong, including questions the knowledge
 * cannot answer (wrong whatever it cites); the lead counts five times as much as relevance. The
 * bias is then set so that 0.5 is where, in 10-fold cross-validation, nine answers in ten at or
 * above it cite the right FAQ: 0.5 reads "confident", and a threshold above it (an assistant's
 * minimum confidence) keeps fewer, surer answers.
 */
export function passageSupport(passage: Passage, passages: Passage[]): number {
  const relevance = passage.relevance ?? 0;
  let rival = RIVAL_FLOOR;
  for (const p of passages) {
    if (p.chunkId === passage.chunkId || (p.sourceId === passage.sourceId && !isPair(p))) continue;
    rival = Math.max(rival, p.relevance ?? 0);
  }
  const lead = Math.max(0, relevance - rival);
  return 1 / (1 + Math.exp(-(BIAS + RELEVANCE_WEIGHT * relevance + LEAD_WEIGHT * lead)));
}

/** A Q&A pair is an answer of its own: another pair of the same source is a rival too. */
const isPair = (p: Passage) => p.content.startsWith('Q: ');

/**
 * The least a rival counts, whatever the others score: about what the best passage of another
 * source scores for a question the knowledge cannot answer (median 0.27 on the development set's
 * unrelated questions). A lead over passages below it says nothing (a base of one or three
 * passages has no real rivals), so a lone passage needs relevance 0.41 to be answered.
 */
const RIVAL_FLOOR = 0.3;

const BIAS = -2.55;
const RELEVANCE_WEIGHT = 1.16;
const LEAD_WEIGHT = 6.36;

/**
 * The support below which the offline responder says it does not know. Chosen by 10-fold
 * cross-validation on the development set (docs/performance.md "Confidence") as the lowest that
 * keeps wrong answers to at most one question in ten (folds chose 0.19 to 0.30): there, answers
 * between 0.2 and 0.5 cite the right FAQ about two times in three.
 */
export const ANSWER_SUPPORT = 0.2;
