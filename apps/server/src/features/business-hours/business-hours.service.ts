import type { BusinessHoursInput } from '@parley/contract/business-hours';
import type { AppContext } from '../../context.ts';
import { now } from '../../lib/clock.ts';
import * as repo from './business-hours.repo.ts';
import { backInWords, type Schedule, teamStatus } from './schedule.ts';

export type { BusinessHoursRow } from './business-hours.repo.ts';

/** The public shape (docs/business-hours.md "Fields"). */
export const toBusinessHours = (r: repo.BusinessHoursRow) => ({
  timezone: r.timezone,
  week: r.week,
  holidays: r.holidays,
  outsideHoursMessage: r.outsideHoursMessage,
  updatedAt: r.updatedAt.toISOString(),
});

export const getBusinessHours = (ctx: AppContext, workspaceId: string) =>
  repo.findBusinessHours(ctx.db, workspaceId);

/** PUT replaces the whole setting; null removes it, and the team is always open again. */
export async function putBusinessHours(
  ctx: AppContext,
  workspaceId: string,
  input: BusinessHoursInput | null,
): Promise<repo.BusinessHoursRow | null> {
  if (input === null) {
    await repo.deleteBusinessHours(ctx.db, workspaceId);
    return null;
  }
  return repo.saveBusinessHours(ctx.db, workspaceId, { ...input, updatedAt: now() });
}

/** Whether a person answers now, and when next (the widget's `teamOnline` and `nextOpenAt`). */
export async function teamStatusOf(ctx: AppContext, workspaceId: string) {
  const row = await repo.findBusinessHours(ctx.db, workspaceId);
  const status = teamStatus(row ?? null, now());
  return { teamOnline: status.teamOnline, nextOpenAt: status.nextOpenAt?.toISOString() ?? null };
}

/**
 * What the customer is told when the conversation is handed to a person outside business hours
 * (docs/business-hours.md "The message"): the workspace's `outsideHoursMessage`, then the next
 * opening in words. null while the team is open, or when no hours are set (always open).
 */
export async function outsideHoursNotice(ctx: AppContext, workspaceId: string): Promise<string | null> {
  const row = await repo.findBusinessHours(ctx.db, workspaceId);
  return row ? noticeAt(row, now()) : null;
}

/** The notice for `schedule` at `at` (null while open); a week without openings has no "back" line. */
export function noticeAt(schedule: Schedule & { outsideHoursMessage: string }, at: Date): string | null {
  const status = teamStatus(schedule, at);
  if (status.teamOnline) return null;
  const opens = status.nextOpenAt;
  return opens
    ? `${schedule.outsideHoursMessage} ${backInWords(schedule.timezone, at, opens)}`
    : schedule.outsideHoursMessage;
}
