import { z } from 'zod';

/** The fields and rules of docs/assistants.md "Fields". */
const name = z.string().trim().min(1).max(100);
const instructions = z.string().max(20_000);
const temperature = z.number().min(0).max(2);
const maxTokens = z.number().int().min(1).max(32_768);
const welcomeMessage = z.string().max(2_000).nullable();
/** Replies below it are withheld and handed to a person (docs/measuring.md "Confidence"); 0 = off. */
const minConfidence = z.number().min(0).max(1);
const newVisibility = z.enum(['private', 'workspace'], {
  message: "Must be 'private' or 'workspace' ('public' is legacy and cannot be set)",
});

export const assistantFields = { name, instructions, temperature, maxTokens, welcomeMessage };

export const createAssistantBody = z.strictObject({
  workspaceId: z.string().max(100).optional(),
  name,
  instructions: instructions.optional(),
  visibility: newVisibility.optional(),
  temperature: temperature.optional(),
  maxTokens: maxTokens.optional(),
  welcomeMessage: welcomeMessage.optional(),
  minConfidence: minConfidence.optional(),
});

/** PATCH: any subset; `public` may be kept by an assistant that already is public (legacy). */
export const patchAssistantBody = z.strictObject({
  name: name.optional(),
  instructions: instructions.optional(),
  visibility: z.enum(['private', 'workspace', 'public']).optional(),
  temperature: temperature.optional(),
  maxTokens: maxTokens.optional(),
  welcomeMessage: welcomeMessage.optional(),
  minConfidence: minConfidence.optional(),
});

export const listAssistantsQuery = z.strictObject({
  workspaceId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const assistantSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  instructions: z.string(),
  visibility: z.enum(['private', 'workspace', 'public']),
  temperature: z.number(),
  maxTokens: z.number().int(),
  welcomeMessage: z.string().nullable(),
  minConfidence: z.number(),
  model: z.literal('auto'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const assistantListItem = assistantSchema.pick({
  id: true,
  name: true,
  model: true,
  visibility: true,
  createdAt: true,
});
