import type { ModelMessage } from 'ai';
import type { MessageRole } from '../../db/schema/index.ts';
import type { Passage } from '../../providers/llm/index.ts';

/**
 * The system prompt (docs/chat.md "The prompt"): the assistant's own instructions first, then the rules of
 * the house and the retrieved passages with their [n] markers.
 */
export function systemPrompt(assistant: { name: string; instructions: string }, passages: Passage[]): string {
  const parts = [
    assistant.instructions.trim() || `You are ${assistant.name}, a helpful customer-support assistant.`,
    [
      'Answer from the knowledge below and from your tools. When you use a passage, cite it with its',
      'marker, e.g. [1]. If the answer is not there, say plainly that you do not know; never invent',
      'policies, prices or order details. If the customer asks for a person, call request_human.',
    ].join(' '),
  ];
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
