import { MAX_SLA_POLICIES } from '@parley/contract/sla';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { SlaAppliesTo } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { resolveSet } from '../labels/labels.service.ts';
import * as repo from './sla-policies.repo.ts';

export type { SlaPolicyRow } from './sla-policies.repo.ts';

type Minutes = number | null | undefined;
type AppliesToInput = { channels?: SlaAppliesTo['channels']; labelIds?: string[] };
export type SlaPolicyInput = {
  name: string;
  firstResponseMinutes?: Minutes;
  nextResponseMinutes?: Minutes;
  resolutionMinutes?: Minutes;
  businessHoursOnly?: boolean;
  appliesTo?: AppliesToInput;
  priority: number;
};
export type SlaPolicyPatch = Partial<SlaPolicyInput>;

/** The public shape (docs/sla.md "Policies"). */
export const toSlaPolicy = (p: repo.SlaPolicyRow) => ({
  id: p.id,
  name: p.name,
  firstResponseMinutes: p.firstResponseMinutes,
  nextResponseMinutes: p.nextResponseMinutes,
  resolutionMinutes: p.resolutionMinutes,
  businessHoursOnly: p.businessHoursOnly,
  appliesTo: {
    ...(p.appliesTo.channels && { channels: p.appliesTo.channels }),
    ...(p.appliesTo.labelIds && { labelIds: p.appliesTo.labelIds }),
  },
  priority: p.priority,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** The order a conversation's policy is chosen in: priority, then the older (the lead's clocks read it). */
export const listSlaPolicies = (ctx: AppContext, workspaceId: string) =>
  repo.listSlaPolicies(ctx.db, workspaceId);

/**
 * The conditions as stored: each list without repeats, in the given order, and an empty list
 * left out (no condition of that kind). Every label must be one of this workspace's, locked
 * until the transaction ends so a concurrent deletion waits; another workspace's or an unknown
 * one is a 400 naming `appliesTo.labelIds`.
 */
async function appliesToOf(tx: Executor, workspaceId: string, input: AppliesToInput): Promise<SlaAppliesTo> {
  const channels = [...new Set(input.channels ?? [])];
  const labelIds = [...new Set(input.labelIds ?? [])];
  if (labelIds.length > 0) {
    try {
      await resolveSet(tx, workspaceId, labelIds);
    } catch (err) {
      if (err instanceof AppError && typeof err.details?.labelIds === 'string') {
        throw badRequest('Validation failed', { 'appliesTo.labelIds': err.details.labelIds });
      }
      throw err;
    }
  }
  return {
    ...(channels.length > 0 && { channels }),
    ...(labelIds.length > 0 && { labelIds }),
  };
}

const NO_TARGET = {
  firstResponseMinutes: 'Set at least one of firstResponseMinutes, nextResponseMinutes, resolutionMinutes',
};

/** A new policy; the workspace's 51st is a 400 naming the limit (counted under a lock, so races hold it). */
export function createSlaPolicy(ctx: AppContext, workspaceId: string, input: SlaPolicyInput) {
  return ctx.db.transaction(async (tx) => {
    await repo.lockWorkspacePolicies(tx, workspaceId);
    if ((await repo.countSlaPolicies(tx, workspaceId)) >= MAX_SLA_POLICIES) {
      throw badRequest(`A workspace has at most ${MAX_SLA_POLICIES} SLA policies`, {
        name: `The limit of ${MAX_SLA_POLICIES} SLA policies is reached; delete one first`,
      });
    }
    const appliesTo = await appliesToOf(tx, workspaceId, input.appliesTo ?? {});
    const at = now();
    return repo.insertSlaPolicy(tx, {
      id: newId('sla'),
      workspaceId,
      name: input.name,
      firstResponseMinutes: input.firstResponseMinutes ?? null,
      nextResponseMinutes: input.nextResponseMinutes ?? null,
      resolutionMinutes: input.resolutionMinutes ?? null,
      businessHoursOnly: input.businessHoursOnly ?? true,
      appliesTo,
      priority: input.priority,
      createdAt: at,
      updatedAt: at,
    });
  });
}

/**
 * A change: the fields given replace theirs (`appliesTo` as a whole; a target set to null is
 * removed). A change that would leave no target is a 400 and changes nothing.
 */
export function updateSlaPolicy(ctx: AppContext, workspaceId: string, id: string, patch: SlaPolicyPatch) {
  return ctx.db.transaction(async (tx) => {
    const current = await repo.lockSlaPolicy(tx, workspaceId, id);
    if (!current) throw notFound('SLA policy');
    const pick = (key: 'firstResponseMinutes' | 'nextResponseMinutes' | 'resolutionMinutes') =>
      patch[key] === undefined ? current[key] : patch[key];
    const targets = {
      firstResponseMinutes: pick('firstResponseMinutes'),
      nextResponseMinutes: pick('nextResponseMinutes'),
      resolutionMinutes: pick('resolutionMinutes'),
    };
    if (Object.values(targets).every((m) => m === null)) {
      throw badRequest('A policy needs at least one target', NO_TARGET);
    }
    const row = await repo.updateSlaPolicy(tx, workspaceId, id, {
      ...targets,
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.businessHoursOnly !== undefined && { businessHoursOnly: patch.businessHoursOnly }),
      ...(patch.priority !== undefined && { priority: patch.priority }),
      ...(patch.appliesTo !== undefined && {
        appliesTo: await appliesToOf(tx, workspaceId, patch.appliesTo),
      }),
      updatedAt: now(),
    });
    if (!row) throw notFound('SLA policy');
    return row;
  });
}

/** A conversation it was chosen for loses it: the foreign key sets its `sla_policy_id` to null. */
export const deleteSlaPolicy = (ctx: AppContext, workspaceId: string, id: string) =>
  repo.deleteSlaPolicy(ctx.db, workspaceId, id);
