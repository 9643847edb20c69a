import type { StreamEvent } from '@parley/contract/stream-events';
import type { TextStreamPart, ToolSet } from 'ai';
import { isDatabaseUnavailable } from '../../db/client.ts';

/** What one SDK part means to us: an event to send, usage to keep, or a failure. */
export type Mapped =
  | { kind: 'event'; event: StreamEvent }
  | { kind: 'usage'; promptTokens: number; completionTokens: number }
  | { kind: 'failure'; error: unknown }
  | { kind: 'abort' }
  | { kind: 'none' };

/**
 * The one mapper from the AI SDK's stream parts to ours (docs/architecture.md "Technical notes":
 * `text-delta.text` → `textDelta`, `tool-call.input` → `args`, `tool-result.output` → `result`,
 * `finish.totalUsage` → `usage`). A tool that throws becomes a `tool-result` carrying `{error}`,
 * so the client sees every call closed. `finish` is sent by the engine once the reply is stored.
 */
export function mapPart(part: TextStreamPart<ToolSet>): Mapped {
  switch (part.type) {
    case 'text-delta':
      return part.text === ''
        ? { kind: 'none' }
        : { kind: 'event', event: { type: 'text-delta', textDelta: part.text } };
    case 'tool-call':
      return {
        kind: 'event',
        event: {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          args: part.input ?? {},
        },
      };
    case 'tool-result':
      return {
        kind: 'event',
        event: { type: 'tool-result', toolCallId: part.toolCallId, result: part.output },
      };
    case 'tool-error':
      return {
        kind: 'event',
        event: { type: 'tool-result', toolCallId: part.toolCallId, result: { error: messageOf(part.error) } },
      };
    case 'finish':
      return {
        kind: 'usage',
        promptTokens: part.totalUsage.inputTokens ?? 0,
        completionTokens: part.totalUsage.outputTokens ?? 0,
      };
    case 'error':
      return { kind: 'failure', error: part.error };
    case 'abort':
      return { kind: 'abort' };
    default:
      return { kind: 'none' };
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'string' ? err : 'Unknown error';
}

/**
 * The `error` event of a reply that failed after its stream started. The database out of reach (a
 * restart, a failover) is an outage the client retries shortly (docs/configuration.md "When
 * PostgreSQL or Redis goes away"), whatever step it broke; anything else is told as `fallback`.
 */
export function failureEvent(err: unknown, fallback: StreamEvent): StreamEvent {
  if (!isDatabaseUnavailable(err)) return fallback;
  return {
    type: 'error',
    error: 'The service is briefly unavailable. Please send your message again in a moment.',
    code: 'service_unavailable:api',
  };
}
