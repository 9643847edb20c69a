import type { ModelMessage } from 'ai';
import type { MessageRole } from '../../db/schema/index.ts';
import { languageName } from '../../lib/language-names.ts';
import type { Passage } from '../../providers/llm/index.ts';

/**
 * The system prompt (docs/chat.md "The prompt"): the assistant's own instructions first, then the rules of
 * the house and the retrieved passages with their [n] markers.
 */
export function systemPrompt(
  assistant: { name: string; instructions: string },
  passages: Passage[],
  rules: readonly GuidanceRule[] = [],
  language: string | null = null,
): string {
  const parts = [
    assistant.instructions.trim() || `You are ${assistant.name}, a helpful customer-support assistant.`,
    [
      'Answer from the knowledge below and from your tools. When you use a passage, cite it with its',
      'marker, e.g. [1]. If the answer is not there, say plainly that you do not know; never invent',
      'policies, prices or order details. If the customer asks for a person, call request_human.',
    ].join(' '),
  ];
  // The customer's language, detected (docs/languages.md "Answers"): the model is told it.
  if (language) {
    const name = languageName(language);
    parts.push(`The customer writes in ${name}: always answer in ${name}.`);
  }
  if (rules.length > 0) parts.push(guidanceSection(rules));
  if (passages.length > 0) {
    const context = passages
      .map((p) => `[${p.index}] ${p.title}${p.url ? ` (${p.url})` : ''}\n${p.content}`)
      .join('\n\n');
    parts.push(`Knowledge:\n${context}`);
  } else {
    parts.push('Knowledge: nothing relevant was found for this question.');
  }
  return parts.join('\n\n');
}

type GuidanceRule = { kind: string; name: string; text: string; triggers: string[] };

const RULE_LEAD: Record<string, string> = {
  handoff: 'Hand the conversation to a person (call request_human)',
  refuse: 'Do not answer; reply only with the rule',
  answer: 'Answer this way',
  tone: 'Tone',
};

/**
 * The team's guidance rules (docs/steering.md "Guidance rules"), every enabled one, in the order
 * they were written: what each asks, and the phrases that trigger it where it has some.
 */
function guidanceSection(rules: readonly GuidanceRule[]): string {
  const lines = rules.map((r) => {
    const when = r.triggers.length > 0 ? ` (when the customer mentions: ${r.triggers.join(', ')})` : '';
    return `- ${RULE_LEAD[r.kind] ?? r.kind}${when}: ${r.name}. ${r.text}`;
  });
  return `Rules from the team, to follow above everything else:\n${lines.join('\n')}`;
}

/** Stored history → model messages. Agent replies speak for the business, as the assistant does. */
export function toModelMessages(history: Array<{ role: MessageRole; content: string }>): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.content === '') continue;
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant' || m.role === 'agent')
      out.push({ role: 'assistant', content: m.content });
  }
  return out;
}
