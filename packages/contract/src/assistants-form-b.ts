import { z } from 'zod';
import { assistantSchema, createAssistantBody, patchAssistantBody } from './assistants.ts';

/** Form B adds `widgetEnabled` and `projectCount` (docs/assistants.md). */
export const formBAssistant = assistantSchema.extend({
  widgetEnabled: z.boolean(),
  projectCount: z.number().int(),
});
export const formBListItem = formBAssistant.pick({
  id: true,
  name: true,
  model: true,
  visibility: true,
  widgetEnabled: true,
  projectCount: true,
  createdAt: true,
});
export const formBCreateBody = createAssistantBody
  .omit({ workspaceId: true })
  .extend({ widgetEnabled: z.boolean().optional() });
export const formBPatchBody = patchAssistantBody.extend({ widgetEnabled: z.boolean().optional() });
export const connectBody = z.strictObject({ projectId: z.string().min(1).max(100) });
export const connectedProject = z.object({
  id: z.string(),
  name: z.string(),
  documentCount: z.number().int(),
  connectedAt: z.string(),
});
