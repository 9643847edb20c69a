import { and, asc, eq, gt, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  events,
  memberships,
  ssoConnections,
  ssoDomains,
  ssoFlows,
  ssoSeenAssertions,
  workspaces,
} from '../../db/schema/index.ts';

export type ConnectionRow = typeof ssoConnections.$inferSelect;
export type DomainRow = typeof ssoDomains.$inferSelect;
export type FlowRow = typeof ssoFlows.$inferSelect;

export async function insertConnection(tx: Executor, row: typeof ssoConnections.$inferInsert) {
  const [saved] = await tx.insert(ssoConnections).values(row).returning();
  return saved!;
}

export async function updateConnection(
  tx: Executor,
  workspaceId: string,
  id: string,
  set: Partial<typeof ssoConnections.$inferInsert>,
) {
  const [saved] = await tx
    .update(ssoConnections)
    .set(set)
    .where(and(eq(ssoConnections.workspaceId, workspaceId), eq(ssoConnections.id, id)))
    .returning();
  return saved;
}

export async function deleteConnection(tx: Executor, workspaceId: string, id: string) {
  await tx
    .delete(ssoConnections)
    .where(and(eq(ssoConnections.workspaceId, workspaceId), eq(ssoConnections.id, id)));
}

export async function findConnection(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.workspaceId, workspaceId), eq(ssoConnections.id, id)))
    .limit(1);
  return row;
}

/** Public surfaces (the SAML ACS and metadata, the OIDC callback): by id alone. */
export async function findConnectionById(db: Executor, id: string) {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.id, id)).limit(1);
  return row;
}

export async function listConnections(db: Executor, workspaceId: string) {
  return db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.workspaceId, workspaceId))
    .orderBy(asc(ssoConnections.createdAt), asc(ssoConnections.id))
    .limit(100);
}

export async function domainsOf(db: Executor, workspaceId: string, connectionIds: string[]) {
  if (connectionIds.length === 0) return [];
  return db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.workspaceId, workspaceId), inArray(ssoDomains.connectionId, connectionIds)))
    .orderBy(asc(ssoDomains.domain));
}

export async function insertDomains(tx: Executor, rows: Array<typeof ssoDomains.$inferInsert>) {
  if (rows.length > 0) await tx.insert(ssoDomains).values(rows).onConflictDoNothing();
}

export async function deleteDomainsExcept(
  tx: Executor,
  workspaceId: string,
  connectionId: string,
  keep: string[],
) {
  const of = and(eq(ssoDomains.workspaceId, workspaceId), eq(ssoDomains.connectionId, connectionId));
  await tx.delete(ssoDomains).where(keep.length > 0 ? and(of, notInArray(ssoDomains.domain, keep)) : of);
}

/** Marks it verified; throws the unique violation when another connection verified it first. */
export async function markVerified(
  tx: Executor,
  workspaceId: string,
  connectionId: string,
  domain: string,
  at: Date,
) {
  await tx
    .update(ssoDomains)
    .set({ verifiedAt: at })
    .where(
      and(
        eq(ssoDomains.workspaceId, workspaceId),
        eq(ssoDomains.connectionId, connectionId),
        eq(ssoDomains.domain, domain),
      ),
    );
}

/** The connection that signs in `domain` (verified). */
export async function connectionForDomain(db: Executor, domain: string) {
  const [row] = await db
    .select({ connection: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoDomains.connectionId))
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)))
    .limit(1);
  return row?.connection;
}

/** Connections requiring SSO whose verified domains include `domain`, with the user's role there. */
export async function requiringSsoFor(db: Executor, userId: string, domain: string) {
  return db
    .select({ workspaceId: ssoConnections.workspaceId, role: memberships.role })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoDomains.connectionId))
    .innerJoin(
      memberships,
      and(eq(memberships.workspaceId, ssoConnections.workspaceId), eq(memberships.userId, userId)),
    )
    .where(
      and(
        eq(ssoDomains.domain, domain),
        isNotNull(ssoDomains.verifiedAt),
        eq(ssoConnections.requireSso, true),
      ),
    );
}

export async function insertFlow(db: Executor, row: typeof ssoFlows.$inferInsert) {
  await db.insert(ssoFlows).values(row);
}

/** Takes a live flow once (delete ... returning): a second callback with it finds nothing. */
export async function takeFlow(db: Executor, id: string, at: Date): Promise<FlowRow | undefined> {
  const [row] = await db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.id, id), gt(ssoFlows.expiresAt, at)))
    .returning();
  return row;
}

export async function findLiveFlow(db: Executor, id: string, at: Date) {
  const [row] = await db
    .select()
    .from(ssoFlows)
    .where(and(eq(ssoFlows.id, id), gt(ssoFlows.expiresAt, at)))
    .limit(1);
  return row;
}

export async function deleteExpiredFlows(db: Executor, at: Date) {
  await db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, at));
}

/** Records an accepted assertion id; false when it was seen before (a replay). */
export async function rememberAssertion(
  db: Executor,
  row: { connectionId: string; assertionId: string; notOnOrAfter: Date },
  at: Date,
): Promise<boolean> {
  await db.delete(ssoSeenAssertions).where(lt(ssoSeenAssertions.notOnOrAfter, at));
  const rows = await db
    .insert(ssoSeenAssertions)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: ssoSeenAssertions.assertionId });
  return rows.length > 0;
}

export async function membershipOf(db: Executor, workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row;
}

/** Whether `userId` left or was removed from the workspace (its `member.left` in the outbox). */
export async function wasRemoved(db: Executor, workspaceId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        eq(events.workspaceId, workspaceId),
        eq(events.type, 'member.left'),
        sql`${events.data}->>'userId' = ${userId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function workspaceStanding(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  return row;
}
