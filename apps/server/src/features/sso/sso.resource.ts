import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { type ConnectionRow, findConnection } from './sso.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** An SSO connection of the workspace (`:connectionId`). */
    ssoConnection: ConnectionRow;
  }
}

export const ssoConnectionResource = defineResource({
  kind: 'ssoConnection',
  param: 'connectionId',
  notFound: resourceNotFound('SSO connection'),
  load: (ctx, { tenant }, id) => findConnection(ctx.db, tenant.workspaceId, id),
});
