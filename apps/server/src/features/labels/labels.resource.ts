import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findLabel, type LabelRow } from './labels.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A label of the workspace (`:labelId`). */
    label: LabelRow;
  }
}

export const labelResource = defineResource({
  kind: 'label',
  param: 'labelId',
  notFound: resourceNotFound('Label'),
  load: (ctx, { tenant }, id) => findLabel(ctx.db, tenant.workspaceId, id),
});
