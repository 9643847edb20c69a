import { z } from 'zod';
import { offsetQuery } from './pagination.ts';

/** Request and response shapes of canned responses (docs/canned-responses.md). */

/** The variables a canned response may use; any other `{{…}}` is refused on save. */
export const CANNED_VARIABLES = [
  'contact.name',
  'contact.email',
  'contact.phone',
  'agent.name',
  'workspace.name',
  'conversation.id',
] as const;
export type CannedVariable = (typeof CANNED_VARIABLES)[number];

/** Every `{{ name }}` of a text (spaces inside the braces allowed). */
export const VARIABLE_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The variables of `content` that are not known: the save's 400 names them. */
export function unknownVariables(content: string): string[] {
  const known = new Set<string>(CANNED_VARIABLES);
  return [...content.matchAll(VARIABLE_PATTERN)].map((m) => m[1] ?? '').filter((name) => !known.has(name));
}

const shortcut = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[a-z0-9_-]+$/, 'Use only a-z, 0-9, _ and -');
const title = z.string().trim().min(1).max(100);
const content = z
  .string()
  .trim()
  .min(1)
  .max(4000)
  .refine((c) => unknownVariables(c).length === 0, {
    message: `Unknown variable; use ${CANNED_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`,
  });

export const createCannedBody = z.strictObject({ shortcut, title, content });
export const updateCannedBody = z.strictObject({
  shortcut: shortcut.optional(),
  title: title.optional(),
  content: content.optional(),
});

export const cannedListQuery = offsetQuery
  .extend({ q: z.string().max(100).optional().describe('Matches shortcut and title, any case') })
  .strict();

export const cannedResponseSchema = z.object({
  id: z.string(),
  shortcut: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
