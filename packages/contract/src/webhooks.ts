import { z } from 'zod';
import { idParam } from './envelope.ts';
import { offsetQuery } from './pagination.ts';

/** URL syntax here; https-only and the address policy are checked in the service (400 either way). */
const url = z.string().trim().min(1).max(2048);
const events = z.array(z.string().min(1).max(100)).min(1).max(50);
const secret = z.string().min(16).max(256);
const workspaceId = z.string().min(1).max(100);

export const createWebhookBody = z.strictObject({
  url,
  events,
  secret: secret.optional(),
  active: z.boolean().optional(),
});
export const updateWebhookBody = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  active: z.boolean().optional(),
});

/**
 * Form B (docs/api.md "Surfaces and credentials", choosing the workspace): the workspace comes in the body,
 * optional with one workspace.
 */
export const createWebhookBodyB = z.strictObject({
  url,
  events,
  active: z.boolean().optional(),
  secret: secret.optional(),
  workspaceId: workspaceId.optional(),
});
export const updateWebhookBodyB = updateWebhookBody;
export const workspaceQueryB = z.strictObject({ workspaceId: workspaceId.optional() });

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
});
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export const webhookSchemaB = webhookSchema.extend({ workspaceId: z.string() });
export const createdWebhookSchemaB = webhookSchemaB.extend({ secret: z.string() });

export const deliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'success', 'failed']),
  statusCode: z.number().int().nullable(),
  attempt: z.number().int(),
  duration: z.number().int().nullable(),
  createdAt: z.string(),
});

/** `GET /api/webhooks` (Form B): a page of the caller's webhooks, of one workspace when named. */
export const listQueryB = offsetQuery.extend({ workspaceId: idParam.optional() }).strict();
