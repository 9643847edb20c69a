import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { personalTokens, sessions, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export async function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<UserRow> {
  const [user] = await db.insert(users).values(row).returning();
  return user!;
}

export async function findUserByEmail(db: Executor, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertSession(db: Executor, row: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Executor, id: string) {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function findSessionById(db: Executor, id: string) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return row;
}

export async function insertPersonalToken(db: Executor, row: typeof personalTokens.$inferInsert) {
  const [token] = await db.insert(personalTokens).values(row).returning();
  return token!;
}

export async function listPersonalTokens(db: Executor, userId: string) {
  return db
    .select()
    .from(personalTokens)
    .where(eq(personalTokens.userId, userId))
    .orderBy(desc(personalTokens.createdAt), desc(personalTokens.id));
}

export async function deletePersonalToken(db: Executor, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(personalTokens)
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, userId)))
    .returning({ id: personalTokens.id });
  return rows.length > 0;
}
