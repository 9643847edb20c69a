import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { detectKind, UnsupportedFileError } from './parsers.ts';
import * as repo from './sources.repo.ts';
import type { CreateSourceInput } from './sources.schemas.ts';

export type { SourceOwner } from './sources.repo.ts';

/** Wakes this process's ingestion worker, if it runs (other processes find the row on their next poll). */
const wakers = new WeakMap<AppContext, () => void>();
export function setIngestionWaker(ctx: AppContext, fn: () => void) {
  wakers.set(ctx, fn);
}
const wake = (ctx: AppContext) => wakers.get(ctx)?.();

const ownerIds = (owner: repo.SourceOwner) =>
  'assistantId' in owner ? { assistantId: owner.assistantId } : { projectId: owner.projectId };

export async function createSource(ctx: AppContext, owner: repo.SourceOwner, input: CreateSourceInput) {
  const at = now();
  const { type, ...config } = input;
  const name =
    input.type === 'text'
      ? input.name
      : input.type === 'website'
        ? (input.name ?? input.url)
        : (input.name ?? 'Q&A');
  const row = await repo.insertSource(ctx.db, {
    id: newId('src'),
    workspaceId: owner.workspaceId,
    ...ownerIds(owner),
    type,
    name,
    config: 'name' in config ? omitName(config) : config,
    createdAt: at,
    updatedAt: at,
  });
  wake(ctx);
  return row;
}

const omitName = (c: Record<string, unknown>) => {
  const { name: _n, ...rest } = c;
  return rest;
};

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
  const row = await ctx.db.transaction(async (tx) => {
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
  });
  wake(ctx);
  return row;
}

export const listSources = (
  ctx: AppContext,
  owner: repo.SourceOwner,
  page: { limit: number; offset: number },
) => repo.listSources(ctx.db, owner, page);

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
    await repo.bumpNamespace(tx, row.assistantId ?? row.projectId ?? '');
  });
}

const REALTIME = new Set(['store', 'spreadsheet']);

/** Re-sync on demand → 202. Realtime sources are read live and have nothing to sync. */
export async function syncSource(ctx: AppContext, owner: repo.SourceOwner, sourceId: string) {
  const row = await getSource(ctx, owner, sourceId);
  if (REALTIME.has(row.type)) throw badRequest('Realtime sources are read live; there is nothing to sync');
  const updated = row.status === 'processing' ? row : await repo.requeueSource(ctx.db, row.id, now());
  wake(ctx);
  return updated ?? row;
}
