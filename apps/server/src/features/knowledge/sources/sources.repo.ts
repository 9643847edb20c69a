import { open } from 'node:fs/promises';
import { type AnyColumn, and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.ts';
import { preparedFor } from '../../../db/prepared.ts';
import {
  knowledgeChunks,
  knowledgeSources,
  namespaceVersions,
  sourceFiles,
} from '../../../db/schema/index.ts';

export type SourceRow = typeof knowledgeSources.$inferSelect;
export type SourceOwner = { workspaceId: string } & ({ assistantId: string } | { projectId: string });

const ownerFilter = (owner: SourceOwner) =>
  and(
    eq(knowledgeSources.workspaceId, owner.workspaceId),
    'assistantId' in owner
      ? eq(knowledgeSources.assistantId, owner.assistantId)
      : eq(knowledgeSources.projectId, owner.projectId),
  );

export async function insertSource(
  db: Executor,
  row: typeof knowledgeSources.$inferInsert,
): Promise<SourceRow> {
  const [created] = await db.insert(knowledgeSources).values(row).returning();
  return created!;
}

export async function insertSourceFile(db: Executor, row: typeof sourceFiles.$inferInsert) {
  await db.insert(sourceFiles).values(row);
}

/** Bytes read per query when a stored file is read back (readSourceFile). */
export const FILE_READ_SLICE = 256 * 1024;

/** A stored file's name, type and length, without its bytes. */
export async function findSourceFileInfo(db: Executor, sourceId: string) {
  const [meta] = await db
    .select({
      filename: sourceFiles.filename,
      mimeType: sourceFiles.mimeType,
      length: sql<number>`octet_length(${sourceFiles.content})`.mapWith(Number),
    })
    .from(sourceFiles)
    .where(eq(sourceFiles.sourceId, sourceId))
    .limit(1);
  return meta;
}

/**
 * Writes a stored file's bytes to `path` for the parse process (ingestion/parse-process.ts), one
 * slice per query: a 50 MB file in one row would hold the event loop while the driver decodes it
 * (PGlite decodes in this process; docs/performance.md "Hostile files during the API benchmark"),
 * 256 KB at a time leaves room for other requests, and the whole file is never in the server's
 * memory. Undefined when the file is gone or was replaced meanwhile. On PostgreSQL the parse
 * worker reads the bytes itself (ingestion/stored-file.ts).
 */
export async function writeSourceFile(db: Executor, sourceId: string, path: string) {
  const meta = await findSourceFileInfo(db, sourceId);
  if (!meta) return undefined;
  const out = await open(path, 'wx', 0o600);
  try {
    for (let at = 0; at < meta.length; at += FILE_READ_SLICE) {
      const [slice] = await db
        .select({
          bytes: sql<Buffer>`substring(${sourceFiles.content} from ${at + 1} for ${FILE_READ_SLICE})`,
        })
        .from(sourceFiles)
        .where(eq(sourceFiles.sourceId, sourceId));
      if (!slice) return undefined; // deleted while we read
      const raw = slice.bytes as Buffer | Uint8Array | string;
      const bytes = typeof raw === 'string' ? Buffer.from(raw.slice(2), 'hex') : raw;
      if (bytes.length !== Math.min(FILE_READ_SLICE, meta.length - at)) return undefined; // replaced meanwhile
      // the write waits on the disk, which gives the event loop its turn between PGlite's answers
      await out.write(bytes);
    }
  } finally {
    await out.close();
  }
  return meta;
}

export async function listSources(db: Executor, owner: SourceOwner, page: { limit: number; offset: number }) {
  const where = ownerFilter(owner);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(knowledgeSources)
      .where(where)
      .orderBy(desc(knowledgeSources.createdAt), desc(knowledgeSources.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(knowledgeSources).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findSource(db: Executor, owner: SourceOwner, id: string) {
  const [row] = await db
    .select()
    .from(knowledgeSources)
    .where(and(ownerFilter(owner), eq(knowledgeSources.id, id)))
    .limit(1);
  return row;
}

export async function findSourceById(db: Executor, id: string) {
  const [row] = await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, id)).limit(1);
  return row;
}

export async function deleteSource(
  db: Executor,
  owner: SourceOwner,
  id: string,
): Promise<SourceRow | undefined> {
  const [row] = await db
    .delete(knowledgeSources)
    .where(and(ownerFilter(owner), eq(knowledgeSources.id, id)))
    .returning();
  return row;
}

/** Puts a source back in the queue (manual or scheduled re-sync). */
export async function requeueSource(db: Executor, source: { workspaceId: string; id: string }, at: Date) {
  const [row] = await db
    .update(knowledgeSources)
    .set({ status: 'pending', error: null, lockedUntil: null, attempts: 0, updatedAt: at })
    .where(and(eq(knowledgeSources.workspaceId, source.workspaceId), eq(knowledgeSources.id, source.id)))
    .returning();
  return row;
}

/**
 * Claims up to `limit` static sources due for ingestion: pending ones, and processing ones whose
 * lease ran out (a crashed worker). SKIP LOCKED lets several processes claim side by side.
 */
export async function claimSources(db: Executor, limit: number, leaseSeconds: number, at: Date) {
  return queryRows<{ id: string }>(
    db,
    sql`update knowledge_sources set status = 'processing', locked_until = ${at.toISOString()}::timestamptz + make_interval(secs => ${leaseSeconds}),
          attempts = attempts + 1, updated_at = ${at.toISOString()}::timestamptz
        where id in (
          select id from knowledge_sources
          where type in ('text', 'qa', 'file', 'website')
            and (status = 'pending' or (status = 'processing' and locked_until < ${at.toISOString()}::timestamptz))
          order by updated_at
          for update skip locked
          limit ${limit})
        returning id`,
  );
}

/** Sources whose scheduled re-sync is due (websites). */
export async function requeueDueSyncs(db: Executor, at: Date) {
  return queryRows<{ id: string }>(
    db,
    sql`update knowledge_sources set status = 'pending', error = null, attempts = 0, updated_at = ${at.toISOString()}::timestamptz
        where next_sync_at <= ${at.toISOString()}::timestamptz and status in ('ready', 'failed')
        returning id`,
  );
}

export async function updateSource(
  db: Executor,
  id: string,
  patch: Partial<typeof knowledgeSources.$inferInsert>,
) {
  await db.update(knowledgeSources).set(patch).where(eq(knowledgeSources.id, id));
}

export type NewChunk = typeof knowledgeChunks.$inferInsert;

export async function insertChunks(db: Executor, rows: NewChunk[]) {
  if (rows.length > 0) await db.insert(knowledgeChunks).values(rows);
}

/** Drops every chunk of a source except `keepGeneration` (null: drop all). */
export async function deleteChunks(db: Executor, sourceId: string, keepGeneration: number | null) {
  await db
    .delete(knowledgeChunks)
    .where(
      and(
        eq(knowledgeChunks.sourceId, sourceId),
        keepGeneration === null ? undefined : ne(knowledgeChunks.generation, keepGeneration),
      ),
    );
}

/** Tells every process's vector cache that a namespace changed. */
export async function bumpNamespace(db: Executor, namespace: string) {
  await db
    .insert(namespaceVersions)
    .values({ namespace, version: 1 })
    .onConflictDoUpdate({
      target: namespaceVersions.namespace,
      set: { version: sql`${namespaceVersions.version} + 1` },
    });
}

export async function countOrphanChunks(db: Executor) {
  const [row] = await db
    .select({ n: count() })
    .from(knowledgeChunks)
    .leftJoin(knowledgeSources, eq(knowledgeSources.id, knowledgeChunks.sourceId))
    .where(isNull(knowledgeSources.id));
  return row?.n ?? 0;
}

/** The realtime source types (store, spreadsheet): read live by the chat's tools, never ingested. */
export const REALTIME_TYPES = ['store', 'spreadsheet'] as const;

/** The realtime sources of an assistant. */
// Read by every reply of an assistant that has any (see hasRealtimeSources): prepared once.
const realtimeOf = preparedFor((db) =>
  db
    .select()
    .from(knowledgeSources)
    .where(
      and(
        eq(knowledgeSources.assistantId, sql.placeholder('assistantId')),
        inArray(knowledgeSources.type, [...REALTIME_TYPES]),
      ),
    )
    .orderBy(knowledgeSources.createdAt)
    .limit(20)
    .prepare('parley_realtime_sources'),
);

/**
 * Whether the assistant `assistantId` (a column of the enclosing query) has realtime sources, as a
 * boolean SQL expression: a chat's first read carries it, so an assistant without any (most) costs
 * no statement for them.
 */
export const hasRealtimeSources = (assistantId: AnyColumn) =>
  sql<boolean>`exists (select 1 from ${knowledgeSources}
    where ${knowledgeSources.assistantId} = ${assistantId}
      and ${inArray(knowledgeSources.type, [...REALTIME_TYPES])})`;

export function listRealtimeSources(db: Executor, assistantId: string) {
  return realtimeOf(db).execute({ assistantId });
}
