import type { TOOL_NAMES } from '@parley/contract/tools';
import { ApiError } from './api.ts';

/**
 * What the visitor reads when something fails (docs/widget-script.md: clear, friendly messages for 429,
 * 403, exhausted credits and lost network). Never the server's raw text: it is written for
 * developers, and the visitor cannot act on it.
 */
export function friendly(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (err.status === 0 || !navigator.onLine) {
    return "You seem to be offline. Check your connection; we'll reconnect when you're back.";
  }
  if (err.code === 'credits_limit_exceeded') {
    return "Our assistant can't answer right now. Please try again later, or leave your details and we'll get back to you.";
  }
  if (err.status === 429 && err.details.quota !== undefined) {
    return 'Our assistant has answered all the messages it can for today. Please come back tomorrow.';
  }
  if (err.status === 429) {
    return `You're sending messages a little fast. Please wait ${waitText(err.retryAfter || 10)} and try again.`;
  }
  if (err.status === 403) return "Chat isn't available on this website right now.";
  if (err.code === 'not_found:widget') return 'Chat is closed right now. Please come back later.';
  if (err.status === 404) return 'This chat is no longer available.';
  if (err.status === 413 || err.code === 'bad_request:chat')
    return "That message couldn't be sent. Please shorten it or start a new chat.";
  return 'Something went wrong on our side. Please try again in a moment.';
}

export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/**
 * What the typing indicator says while a tool of the chat engine runs (the names are the server's
 * TOOL_NAMES, apps/server/src/providers/llm/types.ts); never the code name.
 */
type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
const TOOL_STEPS: Record<ToolName, string> = {
  search_knowledge: 'Looking that up…',
  request_human: 'Finding a person to help…',
  create_ticket: 'Opening a ticket…',
  lookup_spreadsheet: 'Checking our records…',
  lookup_store: 'Checking the store…',
};

export const toolStep = (name: string) => TOOL_STEPS[name as ToolName] ?? 'Working on it…';
