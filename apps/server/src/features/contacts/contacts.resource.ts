import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { type ContactRow, findContact } from './contacts.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A contact of the workspace (`:contactId`). */
    contact: ContactRow;
  }
}

export const contactResource = defineResource({
  kind: 'contact',
  param: 'contactId',
  notFound: resourceNotFound('Contact'),
  load: (ctx, { tenant }, id) => findContact(ctx.db, tenant.workspaceId, id),
});
