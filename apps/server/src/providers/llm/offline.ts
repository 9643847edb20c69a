import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { TOOL_NAMES } from '@parley/contract/tools';
import {
  answerFromPassages,
  answerFromTool,
  orderReference,
  smallTalk,
  wantsHuman,
  wantsTicket,
} from './offline-answers.ts';
import { linesFor, type ResponderLines } from './responder-lines.ts';
import type { ReplyKnowledge } from './types.ts';

type Plan =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; toolCallId: string; toolName: string; input: Record<string, unknown> };

/**
 * The built-in offline responder (docs/chat.md "Models") as an AI SDK language model, so the engine
 * treats it exactly like a remote one: same prompt, same tools, same stream parts. No key, no
 * network, deterministic. It reads the retrieved passages from `knowledge` rather than parsing
 * its system prompt.
 */
export function createOfflineModel(knowledge: ReplyKnowledge): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'parley',
    modelId: 'offline',
    supportedUrls: {},
    async doGenerate(options) {
      const plan = decide(options, knowledge);
      const content: LanguageModelV3Content[] =
        plan.kind === 'text'
          ? [{ type: 'text', text: plan.text }]
          : [
              {
                type: 'tool-call',
                toolCallId: plan.toolCallId,
                toolName: plan.toolName,
                input: JSON.stringify(plan.input),
              },
            ];
      return {
        content,
        finishReason: { unified: plan.kind === 'text' ? 'stop' : 'tool-calls', raw: undefined },
        usage: usageOf(options, plan),
        warnings: [],
      };
    },
    async doStream(options) {
      const plan = decide(options, knowledge);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (plan.kind === 'text') {
        parts.push({ type: 'text-start', id: 't0' });
        for (const piece of plan.text.match(/\S+\s*|\s+/g) ?? [])
          parts.push({ type: 'text-delta', id: 't0', delta: piece });
        parts.push({ type: 'text-end', id: 't0' });
      } else {
        parts.push({
          type: 'tool-call',
          toolCallId: plan.toolCallId,
          toolName: plan.toolName,
          input: JSON.stringify(plan.input),
        });
      }
      parts.push({
        type: 'finish',
        usage: usageOf(options, plan),
        finishReason: { unified: plan.kind === 'text' ? 'stop' : 'tool-calls', raw: undefined },
      });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

function decide(options: LanguageModelV3CallOptions, knowledge: ReplyKnowledge): Plan {
  const prompt = options.prompt;
  const lines = linesFor(knowledge.language);
  let lastUser = -1;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const userMessage = prompt[lastUser];
  const question =
    userMessage?.role === 'user'
      ? userMessage.content
          .map((p) => (p.type === 'text' ? p.text : ''))
          .join(' ')
          .trim()
      : '';

  // Second step: a tool has answered since the user spoke; close with what it returned.
  const results = prompt.slice(lastUser + 1).flatMap((m) => (m.role === 'tool' ? m.content : []));
  const last = results.at(-1);
  if (last && last.type === 'tool-result') {
    const output = 'value' in last.output ? last.output.value : undefined;
    return { kind: 'text', text: answerFromTool(question, { toolName: last.toolName, output }, lines) };
  }

  const tools = new Set((options.tools ?? []).map((t) => t.name));
  const call = (toolName: string, input: Record<string, unknown>): Plan => ({
    kind: 'tool',
    toolCallId: `offline_${lastUser}_${toolName}`,
    toolName,
    input,
  });
  if (tools.has(TOOL_NAMES.handoff) && wantsHuman(question))
    return call(TOOL_NAMES.handoff, { reason: question });
  if (tools.has(TOOL_NAMES.ticket) && wantsTicket(question)) {
    return call(TOOL_NAMES.ticket, { subject: question.slice(0, 120), description: question });
  }
  const order = orderReference(question);
  if (tools.has(TOOL_NAMES.store) && order) return call(TOOL_NAMES.store, { query: question, ...order });
  const chat = smallTalk(question, lines);
  if (chat) return { kind: 'text', text: chat };
  if (knowledge.passages.length === 0) {
    if (tools.has(TOOL_NAMES.spreadsheet)) return call(TOOL_NAMES.spreadsheet, { query: question });
    if (tools.has(TOOL_NAMES.store)) return call(TOOL_NAMES.store, { query: question });
  }
  return { kind: 'text', text: answerInLanguage(question, knowledge, lines) };
}

/**
 * From the passages in the conversation's language (or of no known language) when there are any;
 * otherwise from the others, after a line saying so in the conversation's language
 * (docs/languages.md "Answers").
 */
function answerInLanguage(question: string, knowledge: ReplyKnowledge, lines: ResponderLines): string {
  const { passages, language } = knowledge;
  const own = language ? passages.filter((p) => !p.language || p.language === language) : passages;
  if (own.length > 0 || passages.length === 0) return answerFromPassages(question, own, lines);
  const answer = answerFromPassages(question, passages, lines);
  return answer === lines.notFound ? answer : `${lines.otherLanguage} ${answer}`;
}

const estimate = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function usageOf(options: LanguageModelV3CallOptions, plan: Plan): LanguageModelV3Usage {
  const promptChars = JSON.stringify(options.prompt).length;
  const outChars = plan.kind === 'text' ? plan.text.length : JSON.stringify(plan.input).length;
  const input = estimate(promptChars);
  const output = estimate(outChars);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
