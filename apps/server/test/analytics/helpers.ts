import { sql } from 'drizzle-orm';
import type { Citation, ToolStep } from '../../src/db/schema/index.ts';
import { knowledgeGapOf } from '../../src/features/analytics/gaps.ts';
import { now } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../support/harness.ts';

const DAY_MS = 86_400_000;

/** Noon UTC `days` days before today (0: today, unless it is not yet noon: then 1 minute ago). */
export function daysAgo(days: number): Date {
  const n = now();
  const today = Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate());
  const at = new Date(today - days * DAY_MS + 12 * 3_600_000);
  return at > n ? new Date(n.getTime() - 60_000) : at;
}

export const dateOf = (d: Date) => d.toISOString().slice(0, 10);

export type SeedTurn = {
  question: string;
  /** The AI's reply; omitted: the customer's message got none. */
  reply?: { citations?: Citation[]; toolCalls?: ToolStep[]; status?: 'complete' | 'partial' | 'failed' };
};

/**
 * A conversation written straight to the database (setup only: the figures are read through the
 * API), with its messages a second apart from `at`.
 */
export async function seedConversation(
  t: TestApp,
  workspaceId: string,
  assistantId: string,
  opts: { channel: string; at: Date; handedOff?: boolean; turns?: SeedTurn[]; agentReply?: boolean },
): Promise<string> {
  const id = newId('conv');
  const turns = opts.turns ?? [{ question: 'Hello there, what are your hours?', reply: {} }];
  type Row = {
    role: string;
    content: string;
    status: string;
    citations: unknown;
    tools: unknown;
    gap: string | null;
  };
  const rows: Row[] = [];
  const plain = { status: 'complete', citations: [], tools: [], gap: null };
  for (const turn of turns) {
    rows.push({ ...plain, role: 'user', content: turn.question });
    if (turn.reply) {
      const reply = {
        status: turn.reply.status ?? 'complete',
        citations: turn.reply.citations ?? [],
        toolCalls: turn.reply.toolCalls ?? [],
      };
      // As the chat engine records it when it stores a reply (features/analytics/gaps.ts).
      const gap = knowledgeGapOf({ ...reply, question: turn.question });
      rows.push({ ...reply, role: 'assistant', content: 'An answer.', tools: reply.toolCalls, gap });
    }
  }
  if (opts.agentReply) rows.push({ ...plain, role: 'agent', content: 'A person here.' });
  const at = opts.at.toISOString();
  const last = new Date(opts.at.getTime() + (rows.length - 1) * 1000).toISOString();
  await t.ctx.db.execute(sql`
    insert into conversations (id, workspace_id, assistant_id, channel, status, message_count,
                               last_message_at, handed_off_at, created_at, updated_at)
    values (${id}, ${workspaceId}, ${assistantId}, ${opts.channel},
            ${opts.handedOff ? 'handoff' : 'open'}, ${rows.length}, ${last}::timestamptz,
            ${opts.handedOff ? at : null}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)`);
  let i = 0;
  for (const r of rows) {
    const created = new Date(opts.at.getTime() + i++ * 1000).toISOString();
    await t.ctx.db.execute(sql`
      insert into messages (id, workspace_id, conversation_id, role, content, status, citations,
                            tool_calls, created_at, gap_question)
      values (${newId('msg')}, ${workspaceId}, ${id}, ${r.role}, ${r.content}, ${r.status},
              ${JSON.stringify(r.citations)}::jsonb, ${JSON.stringify(r.tools)}::jsonb,
              ${created}::timestamptz, ${r.gap})`);
  }
  return id;
}

export const CITED: Citation[] = [
  { index: 1, chunkId: 'chk_1', sourceId: 'src_1', title: 'Shipping', url: null },
];
export const HANDOFF_TOOL: ToolStep[] = [
  { toolCallId: 'call_1', toolName: 'request_human', args: {}, result: { status: 'handoff' } },
];
export const SEARCH_TOOL: ToolStep[] = [
  { toolCallId: 'call_2', toolName: 'search_knowledge', args: { query: 'x' }, result: { passages: [] } },
];
