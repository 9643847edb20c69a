import { type CannedVariable, VARIABLE_PATTERN } from '@parley/contract/canned-responses';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { findContact } from '../contacts/contacts.repo.ts';
import type { ConversationRow } from '../conversations/conversations.service.ts';
import { workspaceName } from '../workspaces/invitations.repo.ts';
import * as repo from './canned.repo.ts';

export type { CannedRow } from './canned.repo.ts';

/** The public shape (docs/canned-responses.md "Fields"). */
export const toCanned = (r: repo.CannedRow) => ({
  id: r.id,
  shortcut: r.shortcut,
  title: r.title,
  content: r.content,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const shortcutTaken = () => conflict('A canned response with this shortcut already exists');

/** A unique violation here can only be the shortcut's index: 409. */
async function orTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isUniqueViolation(err)) throw shortcutTaken();
    throw err;
  }
}

export const listCanned = (ctx: AppContext, workspaceId: string, q: string | undefined, page: Page) =>
  repo.listCanned(ctx.db, workspaceId, q, page);
type Page = { limit: number; offset: number };

export function createCanned(
  ctx: AppContext,
  workspaceId: string,
  input: { shortcut: string; title: string; content: string },
) {
  const at = now();
  return orTaken(
    repo.insertCanned(ctx.db, { id: newId('cnd'), workspaceId, ...input, createdAt: at, updatedAt: at }),
  );
}

export async function updateCanned(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: { shortcut?: string; title?: string; content?: string },
) {
  const row = await orTaken(repo.updateCanned(ctx.db, workspaceId, id, { ...patch, updatedAt: now() }));
  if (!row) throw notFound('Canned response');
  return row;
}

export const deleteCanned = (ctx: AppContext, workspaceId: string, id: string) =>
  repo.deleteCanned(ctx.db, workspaceId, id);

/**
 * A canned response's text for one conversation (docs/canned-responses.md "Variables"): each
 * variable replaced by its value as plain text (the dashboard and the widget show it as text),
 * empty when the conversation has none (no contact, a contact without a phone). Unknown ones
 * cannot be stored, so none is left.
 */
export async function renderCanned(
  ctx: AppContext,
  canned: repo.CannedRow,
  conversation: ConversationRow,
  agent: { name: string | null },
): Promise<string> {
  const [contact, workspace] = await Promise.all([
    conversation.contactId
      ? findContact(ctx.db, conversation.workspaceId, conversation.contactId)
      : undefined,
    workspaceName(ctx.db, conversation.workspaceId),
  ]);
  const values: Record<CannedVariable, string | null | undefined> = {
    'contact.name': contact?.name,
    'contact.email': contact?.email,
    'contact.phone': contact?.phone,
    'agent.name': agent.name,
    'workspace.name': workspace,
    'conversation.id': conversation.id,
  };
  return canned.content
    .replace(VARIABLE_PATTERN, (_, name: string) => values[name as CannedVariable] ?? '')
    .trim();
}
