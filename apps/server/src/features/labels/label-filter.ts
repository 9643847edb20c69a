import { sql } from 'drizzle-orm';
import { contacts, conversations } from '../../db/schema/index.ts';

/** Rows whose label set holds label `id` (the GIN index on `labels`; docs/labels.md "Filters"). */
export const holdsLabel = (column: typeof conversations.labels | typeof contacts.labels, id: string) =>
  sql`${column} @> ${JSON.stringify([{ id }])}::jsonb`;

/** The filter "has label `id`", for the inbox and contacts lists. */
export const conversationHasLabel = (id: string) => holdsLabel(conversations.labels, id);
export const contactHasLabel = (id: string) => holdsLabel(contacts.labels, id);
