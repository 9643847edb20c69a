import { text } from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { workspaces } from './workspaces.ts';

/** The references most tables make, defined once (apart from columns.ts: these import tables). */

/** The workspace a row belongs to, deleted with it. */
export const workspaceRef = () =>
  text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** The assistant a row belongs to, deleted with it. */
export const assistantRef = () =>
  text('assistant_id')
    .notNull()
    .references(() => assistants.id, { onDelete: 'cascade' });
