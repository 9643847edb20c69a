import { z } from 'zod';

/** Satisfaction surveys (docs/csat.md). */

/** A conversation's rating, once given. */
export const csatSchema = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  ratedAt: z.string(),
});

/** `POST /api/widget/{assistantId}/csat`: the visitor's rating of their closed conversation. */
export const csatBody = z.strictObject({
  rating: z.number().int().min(1).max(5),
  comment: z.string().trim().max(1000).optional(),
});

/** The survey's settings, part of the inbox settings. */
export const csatSettingsSchema = z.object({ enabled: z.boolean(), question: z.string() });

export const csatSettingsBody = z.strictObject({
  enabled: z.boolean().optional(),
  question: z.string().trim().min(1).max(200).optional(),
});
