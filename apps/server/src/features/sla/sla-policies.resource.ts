import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findSlaPolicy, type SlaPolicyRow } from './sla-policies.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** An SLA policy of the workspace (`:policyId`). */
    slaPolicy: SlaPolicyRow;
  }
}

export const slaPolicyResource = defineResource({
  kind: 'slaPolicy',
  param: 'policyId',
  notFound: resourceNotFound('SLA policy'),
  load: (ctx, { tenant }, id) => findSlaPolicy(ctx.db, tenant.workspaceId, id),
});
