import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { type CannedRow, findCanned } from './canned.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A canned response of the workspace (`:cannedId`). */
    canned: CannedRow;
  }
}

export const cannedResource = defineResource({
  kind: 'canned',
  param: 'cannedId',
  notFound: resourceNotFound('Canned response'),
  load: (ctx, { tenant }, id) => findCanned(ctx.db, tenant.workspaceId, id),
});
