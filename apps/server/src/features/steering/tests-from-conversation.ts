import type { AppContext } from '../../context.ts';
import type { TestExpectation } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { findConversation, messagesOfConversations } from '../conversations/conversations.repo.ts';
import { inInbox } from '../conversations/visibility.ts';
import type { Owner } from './steering.repo.ts';
import { createItem } from './steering.service.ts';

const MAX_TURNS = 10;
const MAX_TURN_CHARS = 8000;

/**
 * A test made from a real conversation of the assistant (docs/steering.md "Tests"): its customer messages (the last ten) become the turns, and the reply the last
 * one got is the starting expectation: its outcome and the sources it cited, or, when a person
 * answered it, a handoff. The conversation must be one the caller may read: in the inbox, or
 * their own internal chat; any other is a 404 like a missing one.
 */
export async function testFromConversation(
  ctx: AppContext,
  owner: Owner,
  input: { conversationId: string; name?: string; userId: string | null },
) {
  const conversation = await findConversation(ctx.db, owner.workspaceId, input.conversationId);
  const readable =
    conversation?.assistantId === owner.assistantId &&
    (inInbox(conversation) || (input.userId !== null && conversation.startedBy === input.userId));
  if (!conversation || !readable) throw notFound('Conversation');
  const all = await messagesOfConversations(ctx.db, [conversation.id]);
  const customer = all.filter((m) => m.role === 'user' && m.content.trim() !== '');
  if (customer.length === 0) throw notFound('Conversation');
  const lastAsked = customer[customer.length - 1]!;
  const answer = all
    .slice(all.indexOf(lastAsked) + 1)
    .find((m) => m.role === 'assistant' || m.role === 'agent');
  const expect: TestExpectation = {};
  if (answer?.role === 'assistant') {
    expect.outcome = answer.outcome ?? 'answered';
    const cited = [...new Set(answer.citations.map((c) => c.sourceId))].slice(0, 20);
    if (cited.length > 0) expect.cites = cited;
  } else if (answer?.role === 'agent' || conversation.status === 'handoff') {
    expect.outcome = 'handoff';
  }
  return createItem(ctx, 'tests', owner, {
    name: (input.name ?? `From: ${conversation.title || lastAsked.content}`).slice(0, 200),
    turns: customer.slice(-MAX_TURNS).map((m) => ({ content: m.content.slice(0, MAX_TURN_CHARS) })),
    expect,
  });
}
