import type { Plan } from '@parley/contract/plans';
import type { Scope } from '@parley/contract/scopes';
import { eq } from 'drizzle-orm';
import { apiKeys, memberships, type Role, workspaceCredits, workspaces } from '../../src/db/schema/index.ts';
import { addDays, now } from '../../src/lib/clock.ts';
import { randomToken, sha256Hex } from '../../src/lib/crypto.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAssistant, personalToken, signupUser, type TestUser } from './factories.ts';
import type { TestApp } from './harness.ts';

/**
 * Test fixtures written straight to the database (setup only; the behaviour under test always
 * goes through the HTTP API). Users are signed up through the API so their cookies are real.
 */
export async function insertWorkspace(
  t: TestApp,
  owner: TestUser,
  opts: { plan?: Plan; name?: string } = {},
): Promise<string> {
  const id = newId('ws');
  const plan = opts.plan ?? 'pro';
  await t.ctx.db.insert(workspaces).values({
    id,
    name: opts.name ?? 'Acme',
    slug: id.replace('_', '-'),
    plan,
    ownerId: owner.id,
    trialEndsAt: plan === 'pro' ? addDays(now(), 14) : null,
    billingStatus: plan === 'pro' ? 'trialing' : 'active',
  });
  await t.ctx.db.insert(memberships).values({ workspaceId: id, userId: owner.id, role: 'owner' });
  return id;
}

/** `joinedAt`: when the order of joining matters (the clock may give two inserts the same time). */
export async function addMember(
  t: TestApp,
  workspaceId: string,
  user: TestUser,
  role: Role,
  joinedAt?: Date,
) {
  await t.ctx.db
    .insert(memberships)
    .values({ workspaceId, userId: user.id, role, ...(joinedAt && { joinedAt }) });
}

export async function setPlan(t: TestApp, workspaceId: string, plan: Plan) {
  await t.ctx.db
    .update(workspaces)
    .set({ plan, billingStatus: 'active', trialEndsAt: null })
    .where(eq(workspaces.id, workspaceId));
}

/** A workspace API key as request headers. */
export async function insertApiKey(
  t: TestApp,
  workspaceId: string,
  scopes: Scope[],
): Promise<Record<string, string>> {
  const key = randomToken('wsk_live_', 32);
  await t.ctx.db.insert(apiKeys).values({
    id: newId('key'),
    workspaceId,
    name: 'test',
    scopes,
    keyHash: sha256Hex(key),
    last4: key.slice(-4),
  });
  return { authorization: `Bearer ${key}` };
}

export type World = {
  /** Workspace A on Pro with one user per role. */
  ws: string;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  guest: TestUser;
  /** Owns workspace B and belongs to nothing in A. */
  outsider: TestUser;
  otherWs: string;
  /** A Free workspace owned by `freeOwner`. */
  freeWs: string;
  freeOwner: TestUser;
};

export async function createWorld(t: TestApp): Promise<World> {
  const [owner, admin, member, guest, outsider, freeOwner] = await Promise.all([
    signupUser(t, { name: 'Owner' }),
    signupUser(t, { name: 'Admin' }),
    signupUser(t, { name: 'Member' }),
    signupUser(t, { name: 'Guest' }),
    signupUser(t, { name: 'Outsider' }),
    signupUser(t, { name: 'Free Owner' }),
  ]);
  const ws = await insertWorkspace(t, owner);
  // Joined in this order, a millisecond apart: listings oldest first must not depend on ids.
  const joined = Date.now();
  await addMember(t, ws, admin, 'admin', new Date(joined + 1));
  await addMember(t, ws, member, 'member', new Date(joined + 2));
  await addMember(t, ws, guest, 'guest', new Date(joined + 3));
  const otherWs = await insertWorkspace(t, outsider, { name: 'Other' });
  const freeWs = await insertWorkspace(t, freeOwner, { plan: 'free', name: 'Free' });
  return { ws, owner, admin, member, guest, outsider, otherWs, freeWs, freeOwner };
}

export { personalToken };

/** The owner of one of the world's workspaces (the security suite prepares resources as them). */
export function ownerOf(w: World, workspaceId: string): TestUser {
  return workspaceId === w.ws ? w.owner : workspaceId === w.otherWs ? w.outsider : w.freeOwner;
}

/** A security suite's `prepare`: an assistant in `workspaceId`, created by its owner. */
export async function withAssistant(t: TestApp, w: World, workspaceId: string) {
  return { assistantId: await createAssistant(t, ownerOf(w, workspaceId), workspaceId) };
}

/** Sets the credit counter of the current month directly (setup only). */
export async function setUsed(t: TestApp, workspaceId: string, used: number) {
  const at = now();
  const row = {
    periodStart: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    periodEnd: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
    used,
  };
  await t.ctx.db
    .insert(workspaceCredits)
    .values({ workspaceId, ...row })
    .onConflictDoUpdate({ target: workspaceCredits.workspaceId, set: row });
}
