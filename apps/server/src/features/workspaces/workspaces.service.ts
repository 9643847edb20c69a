import type { Language } from '@parley/contract/languages';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import type { Role } from '../../db/schema/index.ts';
import type { Tenant } from '../../http/actor.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../http/errors.ts';
import { addDays, now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { findMember } from './members.repo.ts';
import { effectivePlan, TRIAL_DAYS } from './plan.ts';
import { slugify, withRandomSuffix, withSuffix } from './slug.ts';
import * as repo from './workspaces.repo.ts';

type PlanRow = Parameters<typeof effectivePlan>[0];

const slugTaken = () => conflict('This slug is already taken', { slug: 'Already taken' });

/** The workspace as its caller sees it (docs/workspaces.md "Workspaces"). */
export function toWorkspace<
  T extends PlanRow & { id: string; name: string; slug: string; createdAt: Date; defaultLanguage: Language },
>(row: T, role: Role) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    plan: effectivePlan(row),
    role,
    createdAt: row.createdAt.toISOString(),
    trialEndsAt: row.trialEndsAt ? row.trialEndsAt.toISOString() : null,
    defaultLanguage: row.defaultLanguage,
  };
}

/**
 * docs/workspaces.md "Workspaces": a user owns one workspace unless one they own is on Enterprise. The user
 * row lock makes concurrent creations by one user run one after another, so the count is exact.
 */
export async function createWorkspace(
  ctx: AppContext,
  userId: string,
  input: { name: string; slug?: string },
) {
  const at = now();
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.lockUser(tx, userId))) throw unauthorized('Account no longer exists');
    const owned = await repo.ownedWorkspacePlans(tx, userId);
    if (owned.length > 0 && !owned.some((w) => effectivePlan(w) === 'enterprise')) {
      throw new AppError(
        'plan_upgrade_required',
        'Your plan allows one workspace; upgrade a workspace you own to Enterprise to create more',
      );
    }
    const base = {
      id: newId('ws'),
      name: input.name,
      // docs/api.md "Plans": a new workspace starts a 14-day Pro trial.
      plan: 'pro' as const,
      billingStatus: 'trialing',
      trialEndsAt: addDays(at, TRIAL_DAYS),
      ownerId: userId,
      createdAt: at,
      updatedAt: at,
    };
    let row: repo.WorkspaceRow | undefined;
    if (input.slug !== undefined) {
      row = await repo.insertWorkspaceIfSlugFree(tx, { ...base, slug: input.slug });
      if (!row) throw slugTaken();
    } else {
      row = await insertWithGeneratedSlug(tx, base, slugify(input.name));
    }
    await repo.insertMembership(tx, { workspaceId: row.id, userId, role: 'owner', joinedAt: at });
    return {
      ...toWorkspace(row, 'owner'),
      memberCount: 1,
      assistantCount: 0,
      aiProvider: ctx.config.ai.provider,
    };
  });
}

/** Generated slugs never fail: `acme`, else the next free `acme-N`, else a random suffix. */
async function insertWithGeneratedSlug(
  tx: Parameters<typeof repo.insertWorkspaceIfSlugFree>[0],
  base: Omit<Parameters<typeof repo.insertWorkspaceIfSlugFree>[1], 'slug'>,
  slug: string,
) {
  const first = await repo.insertWorkspaceIfSlugFree(tx, { ...base, slug });
  if (first) return first;
  const taken = await repo.slugsLike(tx, slug);
  let n = 2;
  while (taken.has(withSuffix(slug, n))) n++;
  const numbered = await repo.insertWorkspaceIfSlugFree(tx, { ...base, slug: withSuffix(slug, n) });
  if (numbered) return numbered;
  for (let i = 0; i < 5; i++) {
    const random = await repo.insertWorkspaceIfSlugFree(tx, { ...base, slug: withRandomSuffix(slug) });
    if (random) return random;
  }
  throw new AppError('internal_server_error:api', 'Could not generate a unique slug');
}

export async function listWorkspaces(ctx: AppContext, userId: string, limit: number, offset: number) {
  const { rows, total } = await repo.listForUser(ctx.db, userId, limit, offset);
  return { data: rows.map((r) => toWorkspace(r, r.role)), total, limit, offset };
}

export async function getWorkspace(ctx: AppContext, workspaceId: string, role: Role) {
  const row = await repo.findDetail(ctx.db, workspaceId);
  if (!row) throw notFound('Workspace');
  return {
    ...toWorkspace(row, role),
    memberCount: row.memberCount,
    assistantCount: row.assistantCount,
    aiProvider: ctx.config.ai.provider,
  };
}

export async function updateWorkspace(
  ctx: AppContext,
  workspaceId: string,
  role: Role,
  patch: { name?: string; slug?: string; defaultLanguage?: Language },
) {
  if (patch.name !== undefined || patch.slug !== undefined || patch.defaultLanguage !== undefined) {
    try {
      const row = await repo.updateWorkspace(ctx.db, workspaceId, { ...patch, updatedAt: now() });
      if (!row) throw notFound('Workspace');
    } catch (err) {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    }
  }
  return getWorkspace(ctx, workspaceId, role);
}

/**
 * docs/workspaces.md "Workspaces": owner only (route permission); everything in the workspace goes with it
 * (FK cascades).
 */
export async function deleteWorkspace(ctx: AppContext, workspaceId: string) {
  if (!(await repo.deleteWorkspace(ctx.db, workspaceId))) throw notFound('Workspace');
}

/**
 * docs/workspaces.md "Workspaces": the owner hands the workspace to another member and becomes an admin.
 * Recipients who already own a workspace are accepted: the one-workspace rule limits creating, not receiving.
 */
export async function transferOwnership(
  ctx: AppContext,
  workspaceId: string,
  ownerId: string,
  targetId: string,
) {
  await ctx.db.transaction(async (tx) => {
    const ws = await repo.lockWorkspace(tx, workspaceId);
    if (!ws) throw notFound('Workspace');
    // The guard read the role before this lock; re-check against the locked row.
    if (ws.ownerId !== ownerId) throw new AppError('forbidden:api', 'Only the owner can transfer ownership');
    if (targetId === ownerId)
      throw badRequest('You already own this workspace', { userId: 'Already the owner' });
    const target = await findMember(tx, workspaceId, targetId, true);
    if (!target) throw notFound('Member');
    await repo.setRole(tx, workspaceId, ownerId, 'admin');
    await repo.setRole(tx, workspaceId, targetId, 'owner');
    await repo.setOwner(tx, workspaceId, targetId, now());
  });
  return getWorkspace(ctx, workspaceId, 'admin');
}

/** `GET /api/v1/workspace`: a connection test for automation tools (docs/api.md). */
export async function keyWorkspace(ctx: AppContext, tenant: Tenant, scopes: string[]) {
  const ws = await repo.findWorkspaceSummary(ctx.db, tenant.workspaceId);
  if (!ws) throw notFound('Workspace');
  return { ...ws, plan: tenant.plan, scopes };
}
