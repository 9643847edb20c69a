import { and, eq, inArray, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import {
  assistantProjects,
  assistants,
  knowledgeSources,
  type TestResult,
  workspaces,
} from '../../db/schema/index.ts';
import type { Job } from '../../jobs/catalog.ts';
import { emailLater, notifyWorkspaceAdmins } from '../notifications/notifications.service.ts';
import { testsFailedNotice } from '../notifications/templates/tests-failed.ts';
import { planStanding } from '../workspaces/plan.ts';
import { steeringFor } from './steering.cache.ts';
import { allItems } from './steering.repo.ts';
import { playTest, type RunSetting } from './test-runs.play.ts';
import * as runs from './test-runs.repo.ts';

/** A run that could not be played this many times (its process died each time) ends `failed`. */
const MAX_ATTEMPTS = 3;

/**
 * The `test-runs` job (jobs/catalog.ts): claims the next due run and plays it
 * (docs/steering.md "Test runs"). A stopping process gives the run it holds back to the queue.
 */
export function testRunsJob(ctx: AppContext): Job {
  return {
    async step(signal) {
      const run = await runs.claimRun(ctx.db, ctx.config.testRuns.leaseMs);
      if (!run) return false;
      await playRun(ctx, run, signal);
      return true;
    },
  };
}

export async function playRun(ctx: AppContext, run: runs.TestRunRow, signal?: AbortSignal): Promise<void> {
  if (run.attempts > MAX_ATTEMPTS) {
    await runs.finishRun(ctx.db, run, {
      status: 'failed',
      results: [],
      error: `The run could not be finished in ${MAX_ATTEMPTS} attempts.`,
    });
    return;
  }
  const setting = await settingOf(ctx, run);
  if (!setting) return; // the assistant is gone, and its runs with it
  const owner = { workspaceId: run.workspaceId, assistantId: run.assistantId };
  const tests = await allItems(ctx.db, 'tests', owner);
  const results: TestResult[] = [];
  let extended = performance.now();
  for (const test of tests) {
    if (signal?.aborted) {
      await runs.releaseRun(ctx.db, run);
      return;
    }
    results.push(await playTest(setting, test));
    // Shows progress well within the lease; a claim lost means another process plays the run.
    if (performance.now() - extended > ctx.config.testRuns.leaseMs / 3) {
      if (!(await runs.extendClaim(ctx.db, run, ctx.config.testRuns.leaseMs))) return;
      extended = performance.now();
    }
  }
  const previous = await runs.previousRun(ctx.db, run);
  const before = new Map(previous?.results.map((r) => [r.testId, r.passed]));
  for (const r of results) r.previouslyPassed = before.get(r.testId) ?? null;
  const regressed = results.filter((r) => !r.passed && r.previouslyPassed === true);
  const notice = testsFailedNotice(setting.assistant, run.id, regressed);
  const recipients = await ctx.db.transaction(async (tx) => {
    if (!(await runs.finishRun(tx, run, { status: 'done', results }))) return [];
    return regressed.length > 0 ? notifyWorkspaceAdmins(tx, run.workspaceId, notice) : [];
  });
  emailLater(ctx, recipients, notice, { workspaceId: run.workspaceId, runId: run.id });
}

/** The assistant as it is now, its workspace's plan, its steering and the names of its sources. */
async function settingOf(ctx: AppContext, run: runs.TestRunRow): Promise<RunSetting | undefined> {
  const [found] = await ctx.db
    .select({
      assistant: assistants,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(assistants)
    .innerJoin(workspaces, eq(workspaces.id, assistants.workspaceId))
    .where(and(eq(assistants.id, run.assistantId), eq(assistants.workspaceId, run.workspaceId)))
    .limit(1);
  if (!found) return undefined;
  const projects = ctx.db
    .select({ id: assistantProjects.projectId })
    .from(assistantProjects)
    .where(eq(assistantProjects.assistantId, run.assistantId));
  const sources = await ctx.db
    .select({ id: knowledgeSources.id, name: knowledgeSources.name })
    .from(knowledgeSources)
    .where(
      and(
        eq(knowledgeSources.workspaceId, run.workspaceId),
        or(eq(knowledgeSources.assistantId, run.assistantId), inArray(knowledgeSources.projectId, projects)),
      ),
    );
  return {
    ctx,
    assistant: found.assistant,
    plan: planStanding(found).plan,
    steering: await steeringFor(ctx, found.assistant),
    sourceNames: new Map(sources.map((s) => [s.id, s.name])),
  };
}
