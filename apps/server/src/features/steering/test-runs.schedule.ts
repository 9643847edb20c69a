import type { TestRunTrigger } from '@parley/contract/steering';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type Executor, queryRows } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

type Owner = { workspaceId: string; assistantId: string };

/**
 * A change to what an assistant answers from starts a run of its tests (docs/steering.md "Test
 * runs"): in the change's transaction, a run is queued to start `testRuns.delayMs` later, when the
 * assistant has tests; changes before it starts join it (one queued run per assistant: the
 * unique index test_runs_one_queued_idx, migration 0016). The run keeps the first change's trigger.
 */
export async function scheduleRun(
  tx: Executor,
  ctx: AppContext,
  owner: Owner,
  trigger: Exclude<TestRunTrigger, 'manual'>,
): Promise<void> {
  await tx.execute(sql`
    insert into test_runs (id, workspace_id, assistant_id, status, trigger, run_after)
    select ${newId('run')}, ${owner.workspaceId}, ${owner.assistantId}, 'queued', ${trigger},
           now() + make_interval(secs => ${ctx.config.testRuns.delayMs / 1000})
     where exists (select 1 from assistant_tests where assistant_id = ${owner.assistantId})
    on conflict (assistant_id) where status = 'queued' do nothing`);
}

/**
 * The same, for every assistant that answers from a knowledge namespace: its own (the namespace is
 * the assistant's id) or a project it is connected to (the namespace is the project's id).
 */
export async function scheduleRunsForKnowledge(
  tx: Executor,
  ctx: AppContext,
  namespace: string,
): Promise<void> {
  const owners = await queryRows<{ workspace_id: string; id: string }>(
    tx,
    sql`select a.workspace_id, a.id from assistants a
         where a.id = ${namespace}
            or a.id in (select assistant_id from assistant_projects where project_id = ${namespace})`,
  );
  for (const o of owners)
    await scheduleRun(tx, ctx, { workspaceId: o.workspace_id, assistantId: o.id }, 'knowledge');
}
