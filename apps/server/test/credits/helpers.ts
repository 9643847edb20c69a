import type { Plan } from '@parley/contract/plans';
import { and, eq } from 'drizzle-orm';
import { notifications, workspaceCredits, workspaces } from '../../src/db/schema/index.ts';
import { reserveCredit } from '../../src/features/credits/credits.service.ts';
import { AppError } from '../../src/http/errors.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';

/** Moves the app's clock (lib/clock) to `at`; `clockTo(null)` goes back to real time. */
export function clockTo(at: Date | null): void {
  setClockOffset(at ? at.getTime() - Date.now() : 0);
}

/** Noon UTC on the 10th of the month `months` after the real current one (clear of any boundary). */
export function midMonth(months: number): Date {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + months, 10, 12));
}

export const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
export const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** A workspace on `plan` (a Pro workspace is on its trial unless `trial: false`). */
export async function workspaceOn(
  t: TestApp,
  owner: TestUser,
  plan: Plan,
  opts: { trial?: boolean; monthlyCredits?: number | null } = {},
) {
  const ws = await insertWorkspace(t, owner, { plan });
  const set: Partial<typeof workspaces.$inferInsert> = {};
  if (opts.trial === false) Object.assign(set, { trialEndsAt: null, billingStatus: 'active' });
  if (opts.monthlyCredits !== undefined) set.monthlyCredits = opts.monthlyCredits;
  if (Object.keys(set).length > 0) await t.ctx.db.update(workspaces).set(set).where(eq(workspaces.id, ws));
  return ws;
}

/** The fixture lives in test/support/world.ts; this name stays for files that import it from here. */
export { setUsed } from '../support/world.ts';

export async function creditsRow(t: TestApp, workspaceId: string) {
  const [row] = await t.ctx.db
    .select()
    .from(workspaceCredits)
    .where(eq(workspaceCredits.workspaceId, workspaceId));
  return row;
}

/** Reserves `n` credits one after another; returns how many succeeded (the rest were refused). */
export async function reserveMany(t: TestApp, workspaceId: string, n: number) {
  let ok = 0;
  for (let i = 0; i < n; i++) {
    if ((await tryReserve(t, workspaceId)) === 'ok') ok++;
  }
  return ok;
}

/** 'ok', or the AppError code of the refusal. */
export async function tryReserve(t: TestApp, workspaceId: string): Promise<string> {
  try {
    await reserveCredit(t.ctx, workspaceId);
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

/** In-app notifications of one type for a workspace. */
export async function noticesOf(t: TestApp, workspaceId: string, type: string) {
  return t.ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.workspaceId, workspaceId), eq(notifications.type, type)));
}
