import { and, eq, type SQL, sql } from 'drizzle-orm';
import { contacts, conversationLabels, type conversations } from '../../db/schema/index.ts';

/** Rows whose label set holds label `id` (the GIN index on `labels`; docs/labels.md "Filters"). */
export const holdsLabel = (column: typeof conversations.labels | typeof contacts.labels, id: string) =>
  sql`${column} @> ${JSON.stringify([{ id }])}::jsonb`;

/** The filter "has label `id`" for the contacts lists. */
export const contactHasLabel = (id: string) => holdsLabel(contacts.labels, id);

/**
 * The inbox's "has label `id`": that label's rows of `conversation_labels`, joined to their
 * conversations by the list, which then orders and pages by the rows' `lastMessageAt` and
 * `conversationId` (the same values as the conversation's, kept so by migration 0023's trigger),
 * walking `conversation_labels_inbox_idx` (docs/labels.md "Filters").
 */
export const conversationLabelRows = (workspaceId: string, id: string): SQL =>
  and(eq(conversationLabels.workspaceId, workspaceId), eq(conversationLabels.labelId, id)) as SQL;
