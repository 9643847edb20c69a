import { z } from 'zod';

/**
 * Suggestions from the team's answers (docs/measuring.md "Suggestions"), under
 * `/api/assistants/{assistantId}/suggestions`: a customer question the AI could not answer well,
 * with the reply a person gave, which a manager accepts as a curated answer or dismisses.
 */

export const SUGGESTION_STATUSES = ['open', 'accepted', 'dismissed'] as const;

export const suggestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  /** null once the conversation was deleted. */
  conversationId: z.string().nullable(),
  status: z.enum(SUGGESTION_STATUSES),
  createdAt: z.string(),
});

/** The list's filter; without it every status is listed. Paged like the steering lists (`limit`, `offset`). */
export const suggestionsQuery = z.object({ status: z.enum(SUGGESTION_STATUSES).optional() });

/**
 * The curated answer's words when they differ from the suggestion's (the limits of a curated
 * answer); no body at all accepts it as it is.
 */
export const acceptSuggestionBody = z
  .strictObject({
    question: z.string().trim().min(1).max(500).optional(),
    answer: z.string().trim().min(1).max(4000).optional(),
  })
  .nullish();

export const acceptedSuggestionSchema = z.object({ answerId: z.string() });

export type Suggestion = z.output<typeof suggestionSchema>;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
export type AcceptSuggestionInput = NonNullable<z.input<typeof acceptSuggestionBody>>;
