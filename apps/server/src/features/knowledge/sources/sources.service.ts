import type { CreateSourceInput } from '@parley/contract/sources';
import type { AppContext } from '../../../context.ts';
import { isStorageFull, STORAGE_FULL } from '../../../db/storage-full.ts';
import { AppError, badRequest, notFound } from '../../../http/errors.ts';
import { now } from '../../../lib/clock.ts';
import { encrypt } from '../../../lib/crypto.ts';
import { newId } from '../../../lib/ids.ts';
import { scheduleRunsForKnowledge } from '../../steering/test-runs.schedule.ts';
import { detectKind, UnsupportedFileError } from '../ingestion/parsers.ts';
import { checkSourceUrl } from '../outbound.ts';
import { staleChunks } from '../retrieval/reembed.ts';
import * as repo from './sources.repo.ts';

export type { SourceOwner } from './sources.repo.ts';

/** Wakes this process's ingestion job, if it runs (other processes find the row on their next poll). */
const wake = (ctx: AppContext) => ctx.jobs.wake('ingestion');

const REALTIME: ReadonlySet<string> = new Set<string>(repo.REALTIME_TYPES);

const ownerIds = (owner: repo.SourceOwner) =>
  'assistantId' in owner ? { assistantId: owner.assistantId } : { projectId: owner.projectId };

function defaultName(input: CreateSourceInput): string {
  switch (input.type) {
    case 'text':
    case 'spreadsheet':
      return input.name;
    case 'website':
      return input.name ?? input.url;
    case 'store':
      return input.name ?? new URL(input.storeUrl).host;
    default:
      return input.name ?? 'Q&A';
  }
}

/** Splits credentials out of a store's settings: they are stored encrypted, never returned. */
function splitSecret(input: CreateSourceInput): { config: Record<string, unknown>; secret: string | null } {
  const { type: _t, name: _n, ...rest } = input as CreateSourceInput & { name?: string };
  if (input.type !== 'store') return { config: rest, secret: null };
  const { accessToken, consumerKey, consumerSecret, ...config } = rest as Record<string, unknown>;
  return { config, secret: JSON.stringify({ accessToken, consumerKey, consumerSecret }) };
}

const sourceUrl = (input: CreateSourceInput) =>
  input.type === 'website' || input.type === 'spreadsheet'
    ? input.url
    : input.type === 'store'
      ? input.storeUrl
      : null;

export async function createSource(ctx: AppContext, owner: repo.SourceOwner, input: CreateSourceInput) {
  const url = sourceUrl(input);
  const refused = url ? await checkSourceUrl(ctx, url) : null;
  if (refused)
    throw badRequest('Validation failed', { [input.type === 'store' ? 'storeUrl' : 'url']: refused });
  const at = now();
  const { config, secret } = splitSecret(input);
  const row = await repo.insertSource(ctx.db, {
    id: newId('src'),
    workspaceId: owner.workspaceId,
    ...ownerIds(owner),
    type: input.type,
    name: defaultName(input),
    config,
    secretEnc: secret ? encrypt(ctx.config.encryptionKey, secret) : null,
    // realtime sources are read live: there is nothing to ingest
    status: REALTIME.has(input.type) ? 'ready' : 'pending',
    createdAt: at,
    updatedAt: at,
  });
  wake(ctx);
  return row;
}

export type Upload = { filename: string; mimeType: string; content: Buffer };

/** A file source: type checked up front (400), bytes kept for re-sync, parsed by the worker. */
export async function createFileSource(ctx: AppContext, owner: repo.SourceOwner, upload: Upload) {
  let kind: string;
  try {
    kind = detectKind(upload.filename, upload.mimeType);
  } catch (err) {
    if (err instanceof UnsupportedFileError) throw badRequest(err.message, { file: err.message });
    throw err;
  }
  const at = now();
  // The source and its file in one transaction: a failed write (a full disk) keeps neither.
  const row = await ctx.db
    .transaction(async (tx) => {
      const source = await repo.insertSource(tx, {
        id: newId('src'),
        workspaceId: owner.workspaceId,
        ...ownerIds(owner),
        type: 'file',
        name: upload.filename,
        config: { filename: upload.filename, mimeType: upload.mimeType, size: upload.content.length, kind },
        createdAt: at,
        updatedAt: at,
      });
      await repo.insertSourceFile(tx, {
        sourceId: source.id,
        filename: upload.filename,
        mimeType: upload.mimeType,
        size: upload.content.length,
        content: upload.content,
      });
      return source;
    })
    .catch((err: unknown) => {
      if (!isStorageFull(err)) throw err;
      ctx.log.error({ err, size: upload.content.length }, 'upload not saved: the storage is full');
      throw new AppError('internal_server_error:api', STORAGE_FULL);
    });
  wake(ctx);
  return row;
}

/** A page of sources, with each one's chunks still waiting for the re-index (reembed.ts). */
export async function listSources(
  ctx: AppContext,
  owner: repo.SourceOwner,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await repo.listSources(ctx.db, owner, page);
  const pending = await staleChunks(
    ctx,
    rows.map((r) => r.id),
  );
  return { rows, total, pending };
}

export async function getSource(ctx: AppContext, owner: repo.SourceOwner, sourceId: string) {
  const row = sourceId.length <= 100 ? await repo.findSource(ctx.db, owner, sourceId) : undefined;
  if (!row) throw notFound('Source');
  return row;
}

/** Deleting a source removes its chunks (FK cascade) and invalidates the namespace's caches. */
export async function deleteSource(ctx: AppContext, owner: repo.SourceOwner, sourceId: string) {
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteSource(tx, owner, sourceId);
    if (!row) throw notFound('Source');
    const namespace = row.assistantId ?? row.projectId ?? '';
    await repo.bumpNamespace(tx, namespace);
    // What answers from it has changed: their tests run again (docs/steering.md "Test runs").
    await scheduleRunsForKnowledge(tx, ctx, namespace);
  });
}

/** Re-sync on demand → 202. Realtime sources are read live and have nothing to sync. */
export async function syncSource(ctx: AppContext, owner: repo.SourceOwner, sourceId: string) {
  const row = await getSource(ctx, owner, sourceId);
  if (REALTIME.has(row.type)) throw badRequest('Realtime sources are read live; there is nothing to sync');
  const updated = row.status === 'processing' ? row : await repo.requeueSource(ctx.db, row, now());
  wake(ctx);
  return updated ?? row;
}
