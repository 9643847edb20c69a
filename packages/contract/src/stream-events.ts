import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

const errorCode = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/**
 * The events of a streamed reply (docs/chat.md "Stream events"): the same on every surface (the
 * internal chat, the widget, `/api/v1` messages), one JSON object per server-sent event.
 */
export const streamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text-delta'), textDelta: z.string() }),
  z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), args: z.unknown() }),
  z.object({ type: z.literal('tool-result'), toolCallId: z.string(), result: z.unknown() }),
  z.object({
    type: z.literal('finish'),
    messageId: z.string().nullable(),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
  }),
  z.object({ type: z.literal('error'), error: z.string(), code: errorCode }),
]);

export type StreamEvent = z.output<typeof streamEventSchema>;
