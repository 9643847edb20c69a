import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AppContext } from '../../../context.ts';
import { isForeignKeyViolation } from '../../../db/client.ts';
import { isStorageFull, STORAGE_FULL } from '../../../db/storage-full.ts';
import { addDays, now } from '../../../lib/clock.ts';
import { newId } from '../../../lib/ids.ts';
import { mapOnEventLoop } from '../../../lib/on-event-loop.ts';
import { outboundReason } from '../../../lib/outbound/reasons.ts';
import { emailLater, notifyWorkspaceAdmins } from '../../notifications/notifications.service.ts';
import { ingestionFailedNotice } from '../../notifications/templates/ingestion-failed.ts';
import { scheduleRunsForKnowledge } from '../../steering/test-runs.schedule.ts';
import { fetchForKnowledge } from '../outbound.ts';
import { embeddingText } from '../retrieval/reembed.ts';
import { fillGeneration, hasVectorColumn, requestIfLarge } from '../retrieval/vector-backfill.ts';
import { EXACT_MAX_CHUNKS } from '../retrieval/vector-index.ts';
import * as repo from '../sources/sources.repo.ts';
import { type Chunk, chunkQa, chunkText } from './chunking.ts';
import { parseInProcess } from './parse-process.ts';
import { CorruptFileError, detectKind, FileLimitError, UnsupportedFileError } from './parsers.ts';
import { passageLanguages } from './passage-language.ts';
import { crawlWebsite, type WebsiteConfig, WebsiteError } from './website.ts';

/** A failure whose message is shown to the user as the source's `error`. */
export class IngestError extends Error {}

/** One document of a source, before chunking. */
export type SourceDocument = { text: string; title: string; url: string | null };

type TitledChunk = Chunk & { title: string; url: string | null };

/** Chunks embedded and inserted per statement (fewer round trips; docs/performance.md "Knowledge"). */
const EMBED_BATCH = 64;
/** The source's progress (`chunkCount`) is written at most this often while ingestion runs. */
const PROGRESS_EVERY_MS = 1_000;
const MAX_ATTEMPTS = 3;
export const WEBSITE_RESYNC_DAYS = 1;

/** Loaders per static source type (Q&A pairs are chunked directly). */
export type DocumentLoader = (ctx: AppContext, source: repo.SourceRow) => Promise<SourceDocument[]>;
const loaders: Partial<Record<repo.SourceRow['type'], DocumentLoader>> = {
  text: async (_ctx, s) => [{ text: String(s.config.text ?? ''), title: s.name, url: null }],
  website: async (ctx, s) => {
    try {
      const pages = await crawlWebsite(s.config as unknown as WebsiteConfig, async (url) => {
        const res = await fetchForKnowledge(ctx, url, {
          headers: { accept: 'text/html, text/plain;q=0.8, application/xml;q=0.7' },
        });
        return {
          status: res.status,
          contentType: res.contentType,
          body: res.body.toString('utf8'),
          finalUrl: res.finalUrl,
        };
      });
      return pages.map((p) => ({ text: p.text, title: p.title, url: p.url }));
    } catch (err) {
      if (err instanceof WebsiteError) throw new IngestError(err.message);
      // A reason a user can act on (lib/outbound/reasons.ts); the raw error to the server log.
      ctx.log.warn({ err, sourceId: s.id }, 'website source could not be read');
      throw new IngestError(`Could not read the website: ${outboundReason(err)}`);
    }
  },
  file: async (ctx, s) => {
    // On PostgreSQL the parse worker reads the bytes on its own connection; PGlite lives in this
    // process, so the server writes them to a temporary file under DATA_DIR (beside the database's
    // files, whose disk a user is told to free when it is full) for the parse process to read.
    const databaseUrl = ctx.database.pool?.options.connectionString;
    const path = databaseUrl ? undefined : join(ctx.config.dataDir, 'tmp', `parse-${randomUUID()}`);
    try {
      if (path) await mkdir(dirname(path), { recursive: true });
      const file = path
        ? await repo.writeSourceFile(ctx.db, s.id, path)
        : await repo.findSourceFileInfo(ctx.db, s.id);
      if (!file) throw new IngestError('The uploaded file is missing');
      const kind = detectKind(file.filename, file.mimeType);
      const parsed = await parseInProcess(
        path ? { path } : { databaseUrl: databaseUrl!, sourceId: s.id },
        kind,
        parseLimits(ctx),
      );
      return [{ text: parsed.text, title: parsed.title ?? file.filename, url: null }];
    } finally {
      if (path) await rm(path, { force: true });
    }
  },
};

const MB = 1024 * 1024;
const parseLimits = ({ config: { files } }: AppContext) => ({
  maxUnpackedBytes: files.maxUnpackedMb * MB,
  maxEntries: files.maxEntries,
  maxRatio: files.maxCompressionRatio,
  memoryMb: files.parseMemoryMb,
  timeoutMs: files.parseTimeoutSeconds * 1000,
});

async function chunksOf(ctx: AppContext, source: repo.SourceRow): Promise<TitledChunk[]> {
  if (source.type === 'qa') {
    const pairs = (source.config.pairs ?? []) as Array<{ question: string; answer: string }>;
    return chunkQa(pairs).map((c) => ({ ...c, title: source.name, url: null }));
  }
  const loader = loaders[source.type];
  if (!loader) throw new IngestError(`Sources of type ${source.type} are not indexed`);
  const docs = await loader(ctx, source);
  // a site's hundreds of pages are chunked between requests, not in front of them
  const chunked = await mapOnEventLoop(docs, (d) => chunkText(d.text));
  let position = 0;
  return docs.flatMap((d, i) =>
    chunked[i]!.map((c) => ({ ...c, position: position++, title: d.title, url: d.url })),
  );
}

/**
 * Ingests one claimed source (docs/knowledge.md "Ingestion"): load, parse, chunk, embed in batches, store the
 * new generation's chunks (invisible until switched), then in one short transaction switch the
 * source to it and drop the old one. A failure keeps the previous generation serving.
 */
export async function ingestSource(ctx: AppContext, sourceId: string): Promise<void> {
  const source = await repo.findSourceById(ctx.db, sourceId);
  if (source?.status !== 'processing') return;
  const namespace = source.assistantId ?? source.projectId ?? '';
  const generation = source.generation + 1;
  if (source.attempts > MAX_ATTEMPTS) {
    await fail(ctx, source, 'Ingestion stopped: it was interrupted too many times');
    return;
  }
  try {
    const chunks = await chunksOf(ctx, source);
    if (chunks.length === 0) throw new IngestError('No text could be extracted from this source');
    const languages = await passageLanguages(chunks);
    const embedder = ctx.embedder;
    let stored = 0;
    let reported = performance.now();
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const batch = chunks.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map((c) => embeddingText(source.type, c)));
      await repo.insertChunks(
        ctx.db,
        batch.map((c, j) => ({
          id: newId('chk'),
          workspaceId: source.workspaceId,
          sourceId: source.id,
          namespace,
          generation,
          position: c.position,
          heading: c.heading,
          content: c.content,
          title: c.title,
          ...languages[i + j],
          url: c.url,
          tokenCount: c.tokenCount,
          embedder: embedder.id,
          dims: embedder.dimensions,
          embedding: Array.from(vectors[j] ?? []),
        })),
      );
      stored += batch.length;
      // progress: the count so far is visible while ingestion runs (one write a second, not a batch)
      if (performance.now() - reported >= PROGRESS_EVERY_MS && stored < chunks.length) {
        reported = performance.now();
        await repo.updateSource(ctx.db, source.id, { chunkCount: stored, updatedAt: now() });
      }
    }
    const hasVectors = await hasVectorColumn(ctx);
    await ctx.db.transaction(async (tx) => {
      const at = now();
      await repo.updateSource(tx, source.id, {
        status: 'ready',
        error: null,
        generation,
        chunkCount: stored,
        lastSyncedAt: at,
        nextSyncAt: source.type === 'website' ? addDays(at, WEBSITE_RESYNC_DAYS) : null,
        lockedUntil: null,
        updatedAt: at,
      });
      await repo.deleteChunks(tx, source.id, generation);
      if (hasVectors) await fillGeneration(tx, source.id, generation, namespace);
      await repo.bumpNamespace(tx, namespace);
      // A source ready or re-synced starts a run of the tests of who answers from it (docs/steering.md).
      await scheduleRunsForKnowledge(tx, ctx, namespace);
    });
    await requestIfLarge(ctx, namespace, EXACT_MAX_CHUNKS);
  } catch (err) {
    if (isForeignKeyViolation(err)) return; // the source was deleted while we worked
    await fail(ctx, source, readable(err));
    if (!shownAsIs(err) && !isStorageFull(err)) throw err;
  }
}

/**
 * Marks the source failed and drops the unfinished generation; the previous one keeps serving.
 * Owners and admins get an `ingestion.failed` notice (docs/notifications.md "Kinds").
 */
async function fail(ctx: AppContext, source: repo.SourceRow, message: string) {
  const error = message.slice(0, 500);
  const notice = ingestionFailedNotice({ id: source.id, name: source.name, error });
  const recipients = await ctx.db.transaction(async (tx) => {
    await repo.deleteChunks(tx, source.id, source.generation);
    await repo.updateSource(tx, source.id, {
      status: 'failed',
      error,
      chunkCount: source.generation > 0 ? source.chunkCount : 0,
      lockedUntil: null,
      updatedAt: now(),
    });
    return notifyWorkspaceAdmins(tx, source.workspaceId, notice);
  });
  emailLater(ctx, recipients, notice, { workspaceId: source.workspaceId, sourceId: source.id });
}

const shownAsIs = (err: unknown): err is Error =>
  err instanceof IngestError ||
  err instanceof CorruptFileError ||
  err instanceof UnsupportedFileError ||
  err instanceof FileLimitError;

function readable(err: unknown): string {
  if (shownAsIs(err)) return err.message;
  if (isStorageFull(err)) return STORAGE_FULL;
  return 'Ingestion failed unexpectedly; try syncing again';
}
