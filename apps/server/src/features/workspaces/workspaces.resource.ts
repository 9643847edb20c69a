import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findMember, type MemberRow } from './members.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A member of the workspace (`:userId`). */
    member: MemberRow;
  }
}

export const memberResource = defineResource({
  kind: 'member',
  param: 'userId',
  notFound: resourceNotFound('Member'),
  load: (ctx, { tenant }, userId) => findMember(ctx.db, tenant.workspaceId, userId),
});
