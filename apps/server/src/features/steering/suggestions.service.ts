import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import { type ContactValues, maskText } from './mask.ts';
import type { Owner } from './steering.repo.ts';
import { createItem } from './steering.service.ts';
import { pickQuestions } from './suggestions.pick.ts';
import * as repo from './suggestions.repo.ts';

export const listSuggestions = repo.listSuggestions;

/**
 * The suggestions of a conversation being closed, in the close's transaction
 * (features/conversations/conversation-states.ts `applyChange`): its questions the AI answered
 * weakly and a person answered after (suggestions.pick.ts), masked (mask.ts). A question that has
 * one already keeps it, so a conversation closed, reopened and closed again adds only its new ones.
 */
export async function suggestFromClosed(
  tx: Executor,
  conversation: {
    id: string;
    workspaceId: string;
    assistantId: string;
    contactId: string | null;
    handedOffAt: Date | null;
  },
): Promise<number> {
  // A person answers only a conversation handed to them: one the AI kept throughout costs no read.
  if (!conversation.handedOffAt) return 0;
  const ref = { workspaceId: conversation.workspaceId, conversationId: conversation.id };
  const picked = pickQuestions(await repo.messagesForSuggestions(tx, ref));
  if (picked.length === 0) return 0;
  const contact: ContactValues | undefined = conversation.contactId
    ? await repo.contactValues(tx, conversation.workspaceId, conversation.contactId)
    : undefined;
  return repo.insertSuggestions(
    tx,
    picked.map((p) => ({
      id: newId('sug'),
      workspaceId: conversation.workspaceId,
      assistantId: conversation.assistantId,
      conversationId: conversation.id,
      questionMessageId: p.questionMessageId,
      answerMessageId: p.answerMessageId,
      question: maskText(p.question, contact),
      answer: maskText(p.answer, contact),
    })),
  );
}

const LIMITS = { question: 500, answer: 4000 } as const;

const notOpen = (status: string) =>
  conflict(`This suggestion is already ${status}; only an open one can be accepted or dismissed`, {
    status,
  });

/**
 * Accepts an open suggestion as a curated answer, with the edited words if given: the curated
 * answer is made by the steering service itself (its limit, the steering version, a test run), in
 * the same transaction as the suggestion's change, so that neither happens without the other.
 */
export async function acceptSuggestion(
  ctx: AppContext,
  owner: Owner,
  id: string,
  edits: { question?: string; answer?: string },
): Promise<{ answerId: string }> {
  return ctx.db.transaction(async (tx) => {
    const s = await repo.findSuggestion(tx, owner, id, { lock: true });
    if (!s) throw notFound('Suggestion');
    const values = {
      question: (edits.question ?? s.question).trim(),
      answer: (edits.answer ?? s.answer).trim(),
    };
    const details: Record<string, string> = {};
    for (const field of ['question', 'answer'] as const) {
      if (values[field].length > LIMITS[field])
        details[field] = `at most ${LIMITS[field]} characters for a curated answer: shorten it`;
      if (values[field] === '') details[field] = 'must not be empty';
    }
    if (Object.keys(details).length > 0) throw badRequest('The curated answer would not be valid', details);
    if (s.status !== 'open') throw notOpen(s.status);
    // The steering service opens its transaction on `ctx.db`: given this one, it is a savepoint in it.
    const answer = await createItem({ ...ctx, db: tx as unknown as Db }, 'answers', owner, {
      ...values,
      variants: [],
    });
    await repo.settleSuggestion(tx, owner, id, { status: 'accepted', curatedAnswerId: answer.id });
    return { answerId: answer.id };
  });
}

export async function dismissSuggestion(ctx: AppContext, owner: Owner, id: string) {
  return ctx.db.transaction(async (tx) => {
    const s = await repo.findSuggestion(tx, owner, id, { lock: true });
    if (!s) throw notFound('Suggestion');
    if (s.status !== 'open') throw notOpen(s.status);
    const settled = await repo.settleSuggestion(tx, owner, id, { status: 'dismissed' });
    return settled ?? s;
  });
}
