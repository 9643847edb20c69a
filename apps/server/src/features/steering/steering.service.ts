import { STEERING_LIMITS } from '@parley/contract/steering';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ItemInsert, ItemKind, ItemRow, Owner } from './steering.repo.ts';
import * as repo from './steering.repo.ts';
import { scheduleRun } from './test-runs.schedule.ts';

export type { Owner } from './steering.repo.ts';

const WHAT: Record<ItemKind, { one: string; many: string; prefix: 'gdr' | 'ans' | 'tst' }> = {
  guidance: { one: 'Guidance rule', many: 'guidance rules', prefix: 'gdr' },
  answers: { one: 'Curated answer', many: 'curated answers', prefix: 'ans' },
  tests: { one: 'Test', many: 'tests', prefix: 'tst' },
};

/**
 * What a change of a kind sets off, in the change's transaction: guidance rules and curated
 * answers are read from memory under the assistant's steering version (steering.cache.ts), which
 * moves; and either starts a test run of the assistant (docs/steering.md "Test runs"). Tests
 * themselves start none.
 */
async function afterChange(tx: Executor, ctx: AppContext, kind: ItemKind, owner: Owner) {
  if (kind === 'tests') return;
  await repo.bumpSteeringVersion(tx, owner);
  await scheduleRun(tx, ctx, owner, kind);
}

export const listItems = repo.listItems;

/** A new rule, answer or test; one beyond the assistant's limit is a 400 naming it. */
export async function createItem<K extends ItemKind>(
  ctx: AppContext,
  kind: K,
  owner: Owner,
  values: Omit<ItemInsert<K>, 'id' | 'workspaceId' | 'assistantId'>,
): Promise<ItemRow<K>> {
  const limit = STEERING_LIMITS[kind];
  return ctx.db.transaction(async (tx) => {
    await repo.lockItems(tx, kind, owner);
    if ((await repo.countItems(tx, kind, owner)) >= limit) {
      throw badRequest(`An assistant can have at most ${limit} ${WHAT[kind].many}`, {
        [kind]: `at most ${limit}`,
      });
    }
    const row = await repo.insertItem(tx, kind, {
      ...values,
      id: newId(WHAT[kind].prefix),
      ...owner,
    } as ItemInsert<K>);
    await afterChange(tx, ctx, kind, owner);
    return row;
  });
}

export async function updateItem<K extends ItemKind>(
  ctx: AppContext,
  kind: K,
  owner: Owner,
  id: string,
  patch: Partial<ItemInsert<K>>,
): Promise<ItemRow<K>> {
  return ctx.db.transaction(async (tx) => {
    const updated = await repo.updateItem(tx, kind, owner, id, patch);
    if (!updated) throw notFound(WHAT[kind].one);
    await afterChange(tx, ctx, kind, owner);
    return updated;
  });
}

export async function deleteItem(ctx: AppContext, kind: ItemKind, owner: Owner, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteItem(tx, kind, owner, id))) throw notFound(WHAT[kind].one);
    await afterChange(tx, ctx, kind, owner);
  });
}
