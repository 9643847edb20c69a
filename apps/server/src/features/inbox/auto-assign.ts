import type { ChangedBy } from '@parley/contract/inbox';
import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { now } from '../../lib/clock.ts';
import { announceChange, applyChange, type Changed } from '../conversations/conversation-states.ts';
import * as repo from './auto-assign.repo.ts';
import { findInboxSettings } from './inbox-settings.repo.ts';

/**
 * Auto-assignment (docs/inbox.md "Auto-assignment"). With it on, a conversation waiting in
 * `handoff` without an assignee goes to the online owner, admin or member, present in the inbox,
 * with the fewest conversations in `handoff`, below the workspace's maximum (ties: the one
 * assigned longest ago). One assigner at a time per workspace, in every process (an advisory
 * lock), so two processes never give one conversation twice nor anyone more than the maximum.
 * It runs after each change that may let it assign (a conversation waiting, an assignee freed),
 * when someone comes online or opens the inbox, when the settings change, and every minute.
 */

/** A member counts as present this long after their inbox stream closed. */
export const PRESENCE_MS = 5 * 60_000;

const SYSTEM: ChangedBy = { type: 'system', id: null };

/** The one with the fewest conversations below the maximum; ties: assigned longest ago (never first). */
function choose(people: repo.Candidate[], max: number): repo.Candidate | undefined {
  let best: repo.Candidate | undefined;
  for (const p of people) {
    if (p.open >= max) continue;
    if (
      !best ||
      p.open < best.open ||
      (p.open === best.open && (p.lastAssignedAt?.getTime() ?? 0) < (best.lastAssignedAt?.getTime() ?? 0))
    ) {
      best = p;
    }
  }
  return best;
}

/** Assigns the workspace's waiting conversations while someone can take them; how many it assigned. */
export async function assignWaiting(ctx: AppContext, workspaceId: string): Promise<number> {
  const assigned = await ctx.db.transaction(async (tx) => {
    await repo.lockAssignments(tx, workspaceId);
    const settings = await findInboxSettings(tx, workspaceId);
    if (!settings.autoAssign) return [];
    const at = now();
    const max = settings.maxOpenPerAgent;
    const people = await repo.candidates(tx, workspaceId, new Date(at.getTime() - PRESENCE_MS));
    const room = people.reduce((n, p) => n + Math.max(0, max - p.open), 0);
    if (room === 0) return [];
    const out: Changed[] = [];
    for (const c of await repo.lockWaiting(tx, workspaceId, room)) {
      const pick = choose(people, max);
      if (!pick) break;
      const changed = await applyChange(tx, c, { kind: 'assign', assigneeId: pick.userId }, SYSTEM, { at });
      if (!changed?.changed) continue;
      pick.open += 1;
      pick.lastAssignedAt = at;
      out.push(changed);
    }
    return out;
  });
  for (const changed of assigned) await announceChange(ctx, changed);
  return assigned.length;
}

/** Runs the assigner without failing the caller, whose change is already stored. */
export async function assignSoon(ctx: AppContext, workspaceId: string): Promise<void> {
  await assignWaiting(ctx, workspaceId).catch((err) =>
    ctx.log.error({ err, workspaceId }, 'auto-assignment failed; the minute sweep retries'),
  );
}

/**
 * After a committed change: a conversation now waiting, or a conversation in `handoff` that left
 * its assignee (closed, released, given to another), may let the assigner give one out.
 */
export async function assignAfterChange(ctx: AppContext, result: Changed): Promise<void> {
  if (!result.changed) return;
  const c = result.conversation;
  const waiting = c.status === 'handoff' && !c.assigneeId && !c.assignmentHeld;
  const { before } = result;
  const freed =
    before.status === 'handoff' &&
    before.assigneeId !== null &&
    (c.status !== 'handoff' || c.assigneeId !== before.assigneeId);
  if (waiting || freed) await assignSoon(ctx, c.workspaceId);
}

/** The minute sweep: what a lost trigger or a lapsed presence left waiting (jobs/catalog.ts). */
export function autoAssignJob(ctx: AppContext): Job {
  return {
    async step() {
      for (const workspaceId of await repo.workspacesWaiting(ctx.db, 500)) await assignSoon(ctx, workspaceId);
      // Waiting conversations may stay waiting (nobody can take them): the next pass is a minute on.
      return false;
    },
  };
}
