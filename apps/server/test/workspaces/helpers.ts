import { invitations, type Role } from '../../src/db/schema/index.ts';
import { addDays, now } from '../../src/lib/clock.ts';
import { randomToken, sha256Hex } from '../../src/lib/crypto.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace, type World } from '../support/world.ts';

/** A fresh workspace owned by the world's owner with the world's admin, member and guest. */
export async function cloneWorld(t: TestApp, w: World): Promise<string> {
  const ws = await insertWorkspace(t, w.owner);
  for (const role of ['admin', 'member', 'guest'] as const) await addMember(t, ws, w[role], role);
  return ws;
}

/** A pending invitation written straight to the database; returns its id and raw token. */
export async function insertInvitation(
  t: TestApp,
  workspaceId: string,
  email: string,
  opts: { role?: Role; expiresAt?: Date } = {},
) {
  const token = randomToken('', 32);
  const id = newId('inv');
  await t.ctx.db.insert(invitations).values({
    id,
    workspaceId,
    email,
    role: opts.role ?? 'member',
    tokenHash: sha256Hex(token),
    expiresAt: opts.expiresAt ?? addDays(now(), 7),
  });
  return { id, token };
}

export const json = (headers: Record<string, string>) => headers;

export type { TestUser };
