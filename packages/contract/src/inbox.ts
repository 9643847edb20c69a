import { z } from 'zod';
import { conversationSchema, messageSchema } from './chat.ts';
import { csatSettingsBody, csatSettingsSchema } from './csat.ts';
import { idParam } from './envelope.ts';
import { languageSchema } from './languages.ts';
import { cursorQuery } from './pagination.ts';
import { TICKET_PRIORITIES } from './tickets.ts';
import { AVAILABILITIES } from './workspaces.ts';

/** Request and response shapes of the inbox (docs/inbox.md "Endpoints"). */

/** Every inbox path may name its workspace; on a conversation's path it must be the conversation's. */
export const workspaceQuery = z.strictObject({ workspaceId: idParam.optional() });

export const listQuery = cursorQuery
  .extend({
    workspaceId: idParam.optional(),
    status: z.enum(['open', 'handoff', 'closed']).optional(),
    channel: z.enum(['chat', 'widget', 'sms', 'email']).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Z][a-z]{3})?$/, 'A language as conversations carry it, such as es or zh-Hans')
      .optional()
      .describe("Only conversations in this language (the customer's, detected)"),
    assistantId: idParam.optional(),
    assigneeId: idParam.optional(),
    unassigned: z.enum(['true', 'false']).optional(),
    labelId: idParam.optional().describe('Only conversations with this label'),
    slaBreached: z
      .enum(['true'])
      .optional()
      .describe('Only conversations whose SLA clocks recorded a breach'),
    sort: z
      .enum(['recent', 'sla'])
      .optional()
      .describe(
        '`recent` (default): newest activity first; `sla`: the soonest SLA due time first, those with none last',
      ),
    lowConfidence: z
      .enum(['true'])
      .optional()
      .describe(
        "Only conversations with an AI reply (withheld or not) below 0.5 or the assistant's minConfidence, whichever is higher",
      ),
  })
  .strict();

export const messagesQuery = cursorQuery.extend({ workspaceId: idParam.optional() }).strict();

export const conversationParams = z.object({ conversationId: idParam });

export const inboxConversationSchema = conversationSchema.extend({
  handedOffAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});

export const inboxMessageSchema = messageSchema.extend({
  author: z
    .object({ id: z.string(), name: z.string().nullable(), avatarUrl: z.string().nullable() })
    .nullable(),
});

/** A person's reply: its text, or a canned response the server renders for the conversation. */
export const replyBody = z
  .strictObject({
    content: z.string().trim().min(1).max(8000).optional(),
    cannedResponseId: idParam.optional(),
    translateTo: languageSchema
      .optional()
      .describe(
        'Send the reply translated into this language by the remote model; the message keeps what was written as `originalContent` (docs/languages.md "Translation")',
      ),
  })
  .refine((b) => (b.content === undefined) !== (b.cannedResponseId === undefined), {
    message: 'Give either content or cannedResponseId',
    path: ['content'],
  });

/** `POST .../messages/{messageId}/translate` (docs/languages.md "Translation"). */
export const messageParams = z.object({ conversationId: idParam, messageId: idParam });

export const translateBody = z.strictObject({
  to: languageSchema.describe('The language to translate the message into'),
});

export const translationSchema = z.object({
  text: z.string().describe('The message’s content in `to`'),
  from: z
    .string()
    .nullable()
    .describe("The message's language as detected, else the conversation's; null when neither is known"),
  to: languageSchema,
});

export const assignBody = z.strictObject({ assigneeId: idParam.nullable() });

export const ticketBody = z.strictObject({
  subject: z.string().trim().min(1).max(300),
  description: z.string().trim().max(20_000).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
});

/** Who made a change of a conversation's state (docs/inbox.md "States"). */
export const changedBySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), id: z.string() }),
  z.object({ type: z.literal('assistant'), id: z.string() }),
  z.object({ type: z.literal('visitor'), id: z.null() }),
  z.object({ type: z.literal('system'), id: z.null() }),
]);

/** One change on `GET /api/inbox/stream` (docs/inbox.md "Live updates"); `ready` comes first. */
export const inboxEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('conversation.created'), conversation: inboxConversationSchema }),
  z.object({
    type: z.enum(['conversation.updated', 'conversation.ended']),
    conversation: inboxConversationSchema,
    changedBy: changedBySchema,
  }),
  z.object({ type: z.literal('message.created'), conversationId: z.string(), message: inboxMessageSchema }),
  /** A member's availability changed (docs/workspaces.md "Availability"). */
  z.object({
    type: z.literal('member.updated'),
    member: z.object({ userId: z.string(), availability: z.enum(AVAILABILITIES) }),
  }),
]);

/** A workspace's inbox settings (docs/inbox.md "Auto-assignment"). */
export const inboxSettingsSchema = z.object({
  autoAssign: z.boolean(),
  maxOpenPerAgent: z.number().int().min(1).max(100),
  csat: csatSettingsSchema,
});

/** A change of them: any of the fields; the others keep their value. */
export const inboxSettingsBody = z
  .strictObject({
    autoAssign: z.boolean().optional(),
    maxOpenPerAgent: z.number().int().min(1).max(100).optional(),
    csat: csatSettingsBody.optional(),
  })
  .refine((b) => b.autoAssign !== undefined || b.maxOpenPerAgent !== undefined || b.csat !== undefined, {
    message: 'Give autoAssign, maxOpenPerAgent, csat or some of them',
    path: ['autoAssign'],
  });

export type InboxEvent = z.output<typeof inboxEventSchema>;
export type ChangedBy = z.output<typeof changedBySchema>;
