import { dataOf, idParam } from '@parley/contract/envelope';
import { inboxSettingsBody, inboxSettingsSchema } from '@parley/contract/inbox';
import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { tenantOf } from '../../http/tenant.ts';
import { now } from '../../lib/clock.ts';
import { lockAssignments } from './auto-assign.repo.ts';
import { assignSoon } from './auto-assign.ts';
import * as repo from './inbox-settings.repo.ts';

const path = '/api/workspaces/:workspaceId/inbox-settings';
const params = z.object({ workspaceId: idParam });
const tags = ['inbox'];

/**
 * The inbox's settings (docs/inbox.md "Auto-assignment", docs/csat.md): every member reads them, owners and
 * admins change them. A change saves what it names and keeps the rest; turning auto-assignment on
 * or raising the maximum gives out what waits at once.
 */
export const inboxSettingsRoutes: Feature = (app, ctx) => {
  app.get(
    path,
    {
      config: { auth: 'user', permission: 'workspace.view' },
      schema: { tags, params, response: { 200: dataOf(inboxSettingsSchema) } },
    },
    async (request) => ({ data: await repo.findInboxSettings(ctx.db, tenantOf(request).workspaceId) }),
  );

  app.put(
    path,
    {
      config: { auth: 'user', permission: 'inbox.manage' },
      schema: { tags, params, body: inboxSettingsBody, response: { 200: dataOf(inboxSettingsSchema) } },
    },
    async (request) => {
      const { csat, ...rest } = request.body;
      const workspaceId = tenantOf(request).workspaceId;
      const settings = await ctx.db.transaction(async (tx) => {
        // Under the assigner's lock: a pass never runs half on the old settings.
        await lockAssignments(tx, workspaceId);
        const current = await repo.findInboxSettings(tx, workspaceId);
        const next = { ...current, ...rest, csat: { ...current.csat, ...csat } };
        await repo.saveInboxSettings(tx, workspaceId, next, now());
        return next;
      });
      if (settings.autoAssign) await assignSoon(ctx, workspaceId);
      return { data: settings };
    },
  );
};
