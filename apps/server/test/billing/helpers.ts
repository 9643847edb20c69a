import { and, eq } from 'drizzle-orm';
import { events, notifications, workspaceBilling, workspaces } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';

export async function workspaceRow(t: TestApp, ws: string) {
  const [row] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws));
  return row;
}

export async function billingRow(t: TestApp, ws: string) {
  const [row] = await t.ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, ws));
  return row;
}

/** `workspace.plan_changed` events of a workspace, oldest first, as `[from, to]`. */
export async function planChanges(t: TestApp, ws: string) {
  const rows = await t.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, ws), eq(events.type, 'workspace.plan_changed')))
    .orderBy(events.createdAt);
  return rows.map((e) => [e.data.from, e.data.to]);
}

export async function noticesOf(t: TestApp, ws: string, type: string) {
  return t.ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.workspaceId, ws), eq(notifications.type, type)));
}
