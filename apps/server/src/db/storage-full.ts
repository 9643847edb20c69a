import { pgErrorCode } from './client.ts';

/**
 * A write that failed because the disk is full: PostgreSQL's (and PGlite's, whose files live under
 * DATA_DIR) `disk_full` 53100, or a file system's ENOSPC / EDQUOT (docs/knowledge.md "Hostile and broken files").
 */
export function isStorageFull(err: unknown): boolean {
  if (pgErrorCode(err) === '53100') return true;
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** What the user reads when it happens: nothing was saved, and who can fix it. */
export const STORAGE_FULL =
  "The server's storage is full, so nothing was saved. Ask whoever runs Parley to free disk space (where DATA_DIR or the database keeps its files), then try again.";
