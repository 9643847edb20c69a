import type { assistantSchema } from '@parley/contract/assistants';
import type { z } from 'zod';
import { iso, isoOrNull } from '../../http/envelope.ts';
import type { AssistantRow } from './assistants.repo.ts';

export type AssistantOut = z.infer<typeof assistantSchema>;

/** Every assistant uses the same model; listings and objects show `auto` (docs/assistants.md "Fields"). */
export function toAssistant(a: AssistantRow): AssistantOut {
  return {
    id: a.id,
    workspaceId: a.workspaceId,
    name: a.name,
    instructions: a.instructions,
    visibility: a.visibility,
    // real columns round-trip through float4; report the value as the user set it
    temperature: Math.round(a.temperature * 1000) / 1000,
    maxTokens: a.maxTokens,
    welcomeMessage: a.welcomeMessage,
    minConfidence: Math.round(a.minConfidence * 1000) / 1000,
    model: 'auto',
    createdBy: a.createdBy,
    createdAt: iso(a.createdAt),
    updatedAt: isoOrNull(a.updatedAt) ?? iso(a.createdAt),
  };
}
