import type { sourceSchema } from '@parley/contract/sources';
import type { z } from 'zod';
import { iso, isoOrNull } from '../../../http/envelope.ts';
import type { SourceRow } from './sources.repo.ts';

/** What a source's config shows: never secrets, never the full text. */
function publicConfig(s: SourceRow): Record<string, unknown> {
  const c = s.config;
  switch (s.type) {
    case 'text':
      return { characters: String(c.text ?? '').length };
    case 'qa':
      return { pairs: Array.isArray(c.pairs) ? c.pairs.length : 0 };
    default:
      return c;
  }
}

export const toSource = (s: SourceRow, reindexPending = 0): z.infer<typeof sourceSchema> => ({
  id: s.id,
  assistantId: s.assistantId,
  projectId: s.projectId,
  type: s.type,
  name: s.name,
  status: s.status,
  error: s.error,
  chunkCount: s.chunkCount,
  reindexPending,
  lastSyncedAt: isoOrNull(s.lastSyncedAt),
  config: publicConfig(s),
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});
