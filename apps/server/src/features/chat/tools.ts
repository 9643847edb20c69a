import type { Plan } from '@parley/contract/plans';
import { type ToolSet, tool, zodSchema } from 'ai';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { planHas } from '../../http/actor.ts';
import { AppError } from '../../http/errors.ts';
import { TOOL_NAMES } from '../../providers/llm/index.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import type { ConversationRow } from '../conversations/conversations.service.ts';
import { requestHandoff } from '../conversations/handoff.ts';
import { retrieveForAssistant } from '../knowledge/knowledge.service.ts';
import { realtimeLookup } from '../knowledge/realtime/realtime.service.ts';
import type { SourceRow } from '../knowledge/sources/sources.repo.ts';
import { createTicket } from '../tickets/tickets.service.ts';
import type { PassageBook } from './passages.ts';

export type ToolContext = {
  ctx: AppContext;
  assistant: AssistantRow;
  /**
   * The conversation it answers in; null in a test run (docs/steering.md "Test runs"), where the
   * tools that would write (handoff, ticket) only say what they would have done.
   */
  conversation: ConversationRow | null;
  plan: Plan;
  book: PassageBook;
  realtime: SourceRow[];
  /** Called once the handoff tool has handed the conversation over (engine.ts stores the reply). */
  onHandoff?: () => void;
};

// Built once per process and wrapped with zodSchema, which keeps the JSON Schema the model is sent
// once made (a bare zod schema would be converted again on every reply).
const querySchema = zodSchema(z.object({ query: z.string().min(1).max(500) }));
const handoffSchema = zodSchema(z.object({ reason: z.string().max(500).optional() }));
const ticketSchema = zodSchema(
  z.object({ subject: z.string().min(1).max(200), description: z.string().max(5000).optional() }),
);
const storeSchema = zodSchema(
  z.object({
    query: z.string().min(1).max(500),
    orderNumber: z.string().max(50).optional(),
    email: z.string().max(254).optional(),
  }),
);

const failure = (err: unknown) => ({
  error: err instanceof AppError ? err.message : 'The lookup failed; please try again later.',
});

/**
 * The tools an assistant may call while answering (docs/chat.md "Tools"). Each returns a small JSON
 * result; a failure is a result with `error`, never an exception that ends the reply. Store
 * lookups need a plan with channels (docs/api.md "Plans": store lookups are a channel).
 */
export function buildTools(t: ToolContext): ToolSet {
  const tools: ToolSet = {
    [TOOL_NAMES.search]: tool({
      description: "Search the assistant's knowledge base. Cite results by their [n] number.",
      inputSchema: querySchema,
      execute: async ({ query }) => {
        const passages = t.book.add(await retrieveForAssistant(t.ctx, t.assistant, query, 5));
        return {
          passages: passages.map(({ index, title, url, content }) => ({ index, title, url, content })),
        };
      },
    }),
    [TOOL_NAMES.handoff]: tool({
      description: 'Hand the conversation to a human support agent when the customer asks for a person.',
      inputSchema: handoffSchema,
      execute: async ({ reason }) => {
        // Before the change is announced: this reply's own handoff must not stop it (engine.ts).
        t.onHandoff?.();
        if (t.conversation) await requestHandoff(t.ctx, t.conversation, reason ?? '');
        return { status: 'handoff' };
      },
    }),
    [TOOL_NAMES.ticket]: tool({
      description: 'Open a support ticket for the customer when the issue needs follow-up.',
      inputSchema: ticketSchema,
      execute: async ({ subject, description }) => {
        try {
          if (!t.conversation) return { ticketId: null, status: 'not opened: this is a test run' };
          const row = await createTicket(
            t.ctx,
            { workspaceId: t.assistant.workspaceId, plan: t.plan },
            { subject, description, conversationId: t.conversation.id, contactId: t.conversation.contactId },
            // The conversation it answers in, be it a member's private chat.
            'any',
          );
          return { ticketId: row.id, status: row.status };
        } catch (err) {
          return failure(err);
        }
      },
    }),
  };
  const sheets = t.realtime.filter((s) => s.type === 'spreadsheet');
  const stores = planHas(t.plan, 'channels') ? t.realtime.filter((s) => s.type === 'store') : [];
  if (sheets.length > 0) {
    tools[TOOL_NAMES.spreadsheet] = tool({
      description: `Look up live rows in: ${sheets.map((s) => s.name).join(', ')}.`,
      inputSchema: querySchema,
      execute: async ({ query }) => {
        try {
          const results = await Promise.all(
            sheets.map(async (s) => {
              const r = await realtimeLookup(t.ctx, s, { query });
              return {
                source: s.name,
                ...(r.kind === 'spreadsheet' ? { columns: r.columns, rows: r.rows } : {}),
              };
            }),
          );
          return { results };
        } catch (err) {
          return failure(err);
        }
      },
    });
  }
  if (stores.length > 0) {
    tools[TOOL_NAMES.store] = tool({
      description:
        'Search the store for products, or look up an order (needs the order number and the email it was placed with).',
      inputSchema: storeSchema,
      execute: async (input) => {
        try {
          const results = await Promise.all(
            stores.map(async (s) => {
              const r = await realtimeLookup(t.ctx, s, input);
              return {
                source: s.name,
                ...(r.kind === 'store' ? { products: r.products, order: r.order } : {}),
              };
            }),
          );
          return { results };
        } catch (err) {
          return failure(err);
        }
      },
    });
  }
  return tools;
}
