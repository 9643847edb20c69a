import { stemmer } from 'stemmer';
import { tokenize } from '../embeddings/offline.ts';
import { ANSWER_SUPPORT, passageSupport } from './passage-support.ts';
import { GREETING, linesFor, THANKS } from './responder-lines.ts';
import type { Passage } from './types.ts';

/**
 * The built-in offline responder's wording (docs/chat.md "Models"): deterministic answers composed only
 * from what the assistant knows. It quotes the best Q&A answer, or the sentences of the top
 * passages that share the most words with the question, always with citation markers, and says
 * plainly when it does not know. It is not a language model and does not pretend to be one.
 */

/** "I don't know" in English; linesFor gives it in the conversation's language. */
export const NOT_FOUND = linesFor('en').notFound;
const HUMAN =
  /\b(talk|speak|chat)\s+(to|with)\s+(a\s+|an\s+|some\s*)?(human|person|agent|one|body|representative|operator|real person)\b|\b(human|live|real)\s+(agent|person|support)\b|\b(need|want)\s+(a\s+)?(human|person|agent|representative)\b/i;
const TICKET = /\b(open|create|file|raise|submit|log)\s+(a\s+|an\s+)?(support\s+)?(ticket|case)\b/i;
const ORDER = /\border\s*(?:number|no\.?|#)?\s*#?\s*([a-z0-9-]*\d[a-z0-9-]*)/i;
const EMAIL = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/i;

export const wantsHuman = (q: string) => HUMAN.test(q);
export const wantsTicket = (q: string) => TICKET.test(q);

export function smallTalk(question: string, lines = linesFor('en')): string | null {
  if (GREETING.test(question)) return lines.greeting;
  if (THANKS.test(question)) return lines.thanks;
  return null;
}

export function orderReference(question: string): { orderNumber: string; email: string } | null {
  const order = ORDER.exec(question)?.[1];
  const email = EMAIL.exec(question)?.[0];
  return order && email ? { orderNumber: order, email } : null;
}

const SENTENCE = /[^.!?\n]+(?:[.!?]+|$)/g;

/** A text's words for picking sentences: stop words out, stemmed, so "open" finds "opens". */
const stems = (text: string) => tokenize(text).map((w) => (/^[a-z]+$/.test(w) ? stemmer(w) : w));

/**
 * The answer from retrieved passages, or NOT_FOUND when the best one's support (passage-support.ts:
 * its relevance and its lead over other sources, the measure the reply's confidence uses) is
 * below ANSWER_SUPPORT. Passages without a relevance (none was measured) are taken as they come.
 */
export function answerFromPassages(question: string, passages: Passage[], lines = linesFor('en')): string {
  const top = passages[0];
  if (!top) return lines.notFound;
  if (top.relevance !== undefined && passageSupport(top, passages) < ANSWER_SUPPORT) return lines.notFound;
  const qa = /^Q: [\s\S]*?\nA: ([\s\S]+)$/.exec(top.content);
  if (qa?.[1]) return `${qa[1].trim()} [${top.index}]`;

  const words = new Set(stems(question));
  const picked: Array<{ text: string; index: number; score: number; order: number }> = [];
  let order = 0;
  for (const p of passages.slice(0, 3)) {
    for (const m of p.content.matchAll(SENTENCE)) {
      const text = m[0].replace(/\s+/g, ' ').trim();
      if (text.length < 3) continue;
      const score = stems(text).filter((w) => words.has(w)).length;
      picked.push({ text, index: p.index, score, order: order++ });
    }
  }
  const best = picked
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 3)
    .sort((a, b) => a.order - b.order);
  if (best.length === 0) {
    const excerpt = top.content.replace(/\s+/g, ' ').trim().slice(0, 400);
    return `${lines.foundExcerpt} ${excerpt} [${top.index}]`;
  }
  return best.map((s) => `${s.text} [${s.index}]`).join(' ');
}

type ToolOutcome = { toolName: string; output: unknown };

/** The closing answer after a tool ran (the offline responder's second step). */
export function answerFromTool(question: string, outcome: ToolOutcome, lines = linesFor('en')): string {
  const out = (outcome.output ?? {}) as Record<string, unknown>;
  if (typeof out.error === 'string') return lines.couldNotComplete(out.error);
  switch (outcome.toolName) {
    case 'request_human':
      return lines.humanAsked;
    case 'create_ticket':
      return lines.ticketOpened(String(out.ticketId));
    case 'search_knowledge':
      return answerFromPassages(question, (out.passages as Passage[] | undefined) ?? [], lines);
    case 'lookup_spreadsheet':
      return describeRows(out);
    case 'lookup_store':
      return describeStore(out);
    default:
      return lines.notFound;
  }
}

function describeRows(out: Record<string, unknown>): string {
  const results = (out.results as Array<{ source: string; rows: Array<Record<string, string>> }>) ?? [];
  const lines = results.flatMap((r) =>
    r.rows.map((row) =>
      Object.entries(row)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    ),
  );
  if (lines.length === 0) return NOT_FOUND;
  return `Here is what I found:\n${lines.map((l) => `- ${l}`).join('\n')}`;
}

type StoreResult = {
  source: string;
  products: Array<{ title: string; price: string | null; available: boolean }>;
  order: {
    number: string;
    status: string;
    fulfillment: string | null;
    total: string;
    currency: string;
  } | null;
};

function describeStore(out: Record<string, unknown>): string {
  const results = (out.results as StoreResult[]) ?? [];
  const parts: string[] = [];
  for (const r of results) {
    if (r.order) {
      const o = r.order;
      const shipped = o.fulfillment ? `, fulfilment: ${o.fulfillment}` : '';
      parts.push(`Order ${o.number} is ${o.status}${shipped} (total ${o.total} ${o.currency}).`);
    }
    for (const p of r.products.slice(0, 5)) {
      const price = p.price ? ` at ${p.price}` : '';
      parts.push(`- ${p.title}${price}, ${p.available ? 'in stock' : 'out of stock'}`);
    }
  }
  if (parts.length === 0) return "I couldn't find a matching product or order.";
  return `Here is what I found:\n${parts.join('\n')}`;
}
