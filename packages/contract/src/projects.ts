import { z } from 'zod';

/** Knowledge projects of a workspace (docs/knowledge.md "Projects", Form B). */
export const projectBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).optional(),
});
export const projectPatch = projectBody.partial();
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  documentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
