import { z } from 'zod';
import { csatSchema } from './csat.ts';
import { emailMessageInfo } from './email.ts';
import { idParam } from './envelope.ts';
import { labelRef } from './labels.ts';
import { conversationSlaSchema } from './sla.ts';
import { REPLY_OUTCOMES } from './steering.ts';

export const chatBody = z
  .object({
    assistantId: idParam,
    conversationId: idParam.optional(),
    content: z.string().trim().min(1).max(8000),
  })
  .strict();

const citation = z.object({
  index: z.number(),
  chunkId: z.string(),
  sourceId: z.string(),
  title: z.string().nullable(),
  url: z.string().nullable(),
});

export const conversationSchema = z.object({
  id: z.string(),
  labels: z.array(labelRef).describe('Its labels (docs/labels.md)'),
  workspaceId: z.string(),
  assistantId: z.string(),
  channel: z.enum(['chat', 'widget', 'sms', 'email']),
  status: z.enum(['open', 'handoff', 'closed']),
  title: z.string(),
  language: z
    .string()
    .nullable()
    .describe(
      "The customer's language (`es`, `ja`, `zh-Hans`, ...), detected from their messages; null until one tells (docs/languages.md)",
    ),
  contactId: z.string().nullable(),
  assigneeId: z.string().nullable(),
  messageCount: z.number(),
  handoffReason: z
    .enum(['customer_asked', 'rule', 'low_confidence', 'declined', 'agent'])
    .nullable()
    .describe('Why a person was last asked to answer; null while the AI holds the conversation'),
  handoffRuleId: z.string().nullable().describe('The guidance rule that handed it over (reason `rule`)'),
  csat: csatSchema
    .nullable()
    .describe("The customer's rating after a person's conversation closed (docs/csat.md)"),
  sla: conversationSlaSchema
    .nullable()
    .describe('Its SLA clocks, under the policy chosen when it entered handoff (docs/sla.md)'),
  lastMessageAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const messageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  role: z.enum(['user', 'assistant', 'agent', 'system']),
  content: z.string(),
  originalContent: z
    .string()
    .nullable()
    .describe(
      'A person\'s reply sent translated (`translateTo`, docs/languages.md "Translation"): the text they wrote, while `content` is what the customer got; null on every other message',
    ),
  authorId: z.string().nullable(),
  status: z.enum(['complete', 'partial', 'failed']),
  citations: z.array(citation),
  toolCalls: z.array(
    z.object({
      toolCallId: z.string(),
      toolName: z.string(),
      args: z.unknown(),
      result: z.unknown().optional(),
    }),
  ),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }).nullable(),
  outcome: z
    .enum(REPLY_OUTCOMES)
    .nullable()
    .describe("An AI reply's outcome (docs/steering.md); null on other messages"),
  curatedAnswerId: z.string().nullable().describe('The curated answer a `curated` reply gave'),
  confidence: z
    .number()
    .nullable()
    .describe(
      'How well the knowledge supports an AI reply, 0 to 1 (docs/measuring.md); null on other messages and on the reply telling the customer a person will answer',
    ),
  withheld: z
    .boolean()
    .describe("A draft held back below the assistant's minConfidence; only the inbox lists these"),
  createdAt: z.string(),
  deliveryStatus: z
    .enum(['queued', 'sent', 'delivered', 'undelivered', 'failed'])
    .nullable()
    .optional()
    .describe("Only on a reply sent as an SMS: the provider's latest delivery status (only forward)"),
  errorCode: z
    .string()
    .nullable()
    .optional()
    .describe("Only on a reply sent as an SMS: the provider's error code when it could not deliver"),
  email: emailMessageInfo
    .nullable()
    .optional()
    .describe(
      'Only in an email conversation: subject, addresses, sanitised HTML, attachments (docs/email.md)',
    ),
});

/** `POST /api/v1/messages`: a message into an existing conversation (docs/api.md). */
export const v1MessageBody = z.strictObject({
  conversationId: idParam,
  content: z.string().trim().min(1).max(8000),
});
