import { MAX_LABELS } from '@parley/contract/labels';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import type { LabelRef } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './labels.repo.ts';

export type { LabelRow } from './labels.repo.ts';

/** The public shape (docs/labels.md "Fields"). */
export const toLabel = (l: repo.LabelRow) => ({
  id: l.id,
  name: l.name,
  color: l.color,
  description: l.description,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});

const refOf = (l: repo.LabelRow): LabelRef => ({ id: l.id, name: l.name, color: l.color });

/** A unique violation here can only be the name's index (any case): 409. */
async function orTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A label with this name already exists');
    throw err;
  }
}

export const listLabels = (ctx: AppContext, workspaceId: string) => repo.listLabels(ctx.db, workspaceId);

/** A new label; the workspace's 201st is a 400 naming the limit (counted under a lock, so races hold it). */
export function createLabel(
  ctx: AppContext,
  workspaceId: string,
  input: { name: string; color: string; description?: string },
) {
  return orTaken(() =>
    ctx.db.transaction(async (tx) => {
      await repo.lockWorkspaceLabels(tx, workspaceId);
      if ((await repo.countLabels(tx, workspaceId)) >= MAX_LABELS) {
        throw badRequest(`A workspace has at most ${MAX_LABELS} labels`, {
          name: `The limit of ${MAX_LABELS} labels is reached; delete one first`,
        });
      }
      const at = now();
      return repo.insertLabel(tx, {
        id: newId('lbl'),
        workspaceId,
        name: input.name,
        color: input.color,
        description: input.description ?? '',
        createdAt: at,
        updatedAt: at,
      });
    }),
  );
}

/** A change; a new name or color reaches every conversation and contact that has the label, in the same transaction. */
export function updateLabel(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: { name?: string; color?: string; description?: string },
) {
  return orTaken(() =>
    ctx.db.transaction(async (tx) => {
      const row = await repo.updateLabel(tx, workspaceId, id, { ...patch, updatedAt: now() });
      if (!row) throw notFound('Label');
      if (patch.name !== undefined || patch.color !== undefined)
        await repo.rewriteSets(tx, workspaceId, id, refOf(row));
      return row;
    }),
  );
}

/** Deleted, it leaves every set it was in (docs/labels.md "Sets"). */
export async function deleteLabel(ctx: AppContext, workspaceId: string, id: string) {
  await ctx.db.transaction(async (tx) => {
    if (await repo.deleteLabel(tx, workspaceId, id)) await repo.rewriteSets(tx, workspaceId, id, null);
  });
}

/**
 * The set `labelIds` names, in the given order without repeats, from the workspace's labels,
 * locked until the caller's transaction ends (a rename waits for it). A label of another
 * workspace, or none, is a 400 naming `labelIds`: nothing is applied.
 */
export async function resolveSet(
  tx: Parameters<typeof repo.lockLabels>[0],
  workspaceId: string,
  labelIds: string[],
) {
  const ids = [...new Set(labelIds)];
  const found = new Map((await repo.lockLabels(tx, workspaceId, ids)).map((l) => [l.id, l]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw badRequest('Validation failed', {
      labelIds: `Not a label of this workspace: ${missing.join(', ')}`,
    });
  }
  return ids.map((id) => refOf(found.get(id) as repo.LabelRow));
}
