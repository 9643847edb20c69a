import type { MessageRole } from '../../db/schema/index.ts';
import { loadedDetector } from '../../lib/language-detect.ts';

/** Letters from which a message always names a language, however unsure the detector is. */
export const TELLING_LETTERS = 20;

/**
 * What a customer's message says of its conversation's language (docs/languages.md
 * "Conversations"):
 * - `detected`: the language the detector is sure of; it becomes the conversation's (a customer
 *   who changes language changes it);
 * - `guessed`: for a message of TELLING_LETTERS letters or more that the detector is unsure of,
 *   its best guess, taken only while the conversation has no language yet;
 * - neither (a greeting, "ok", an order number): the conversation keeps its language.
 * Only the customer's messages count; null for every other role. The detector is loaded before
 * the app answers its first request (app.ts), so this is synchronous.
 */
export type LanguageSignal = { detected: string | null; guessed: string | null };

export function languageSignal(message: { role: MessageRole; content: string }): LanguageSignal | null {
  if (message.role !== 'user') return null;
  const detector = loadedDetector();
  if (!detector) return null;
  const detected = detector.detect(message.content);
  if (detected) return { detected, guessed: null };
  const letters = message.content.match(/\p{L}/gu)?.length ?? 0;
  return { detected: null, guessed: letters >= TELLING_LETTERS ? detector.guess(message.content) : null };
}

/** The language a new conversation starts with, from its first message. */
export function firstLanguage(message: { role: MessageRole; content: string }): string | null {
  const s = languageSignal(message);
  return s?.detected ?? s?.guessed ?? null;
}
