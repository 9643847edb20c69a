import type { SourceType } from '@parley/contract/api-types';
import type { Source } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';

/**
 * A source as `GET /api/assistants/{id}/sources` returns it (docs/knowledge.md; the server's type,
 * packages/contract/src/api-types.ts). `config` never holds a store's credentials (the server keeps them
 * encrypted and never returns them).
 */
export type SourceDetail = Source;
export type { SourceType };

/** Spreadsheets and stores are read live by the chat: nothing to index, nothing to re-sync. */
export const isLive = (type: string) => type === 'spreadsheet' || type === 'store';

/** A source type's name in the reader's language ("Website", "Sitio web"). */
export const typeLabel = (type: SourceType) => i18n.t(`knowledge:types.${type}`);

/**
 * The server's `UPLOAD_LIMIT_BYTES`, which it writes into the page (features/web/web-files.ts);
 * 20 MB, its default, when absent (the Vite dev server). A bigger file is refused before sending.
 */
export const UPLOAD_LIMIT_BYTES =
  Number(document.querySelector<HTMLMetaElement>('meta[name="parley-upload-limit-bytes"]')?.content) ||
  20 * 1024 * 1024;

/** What the file route accepts (apps/server/src/features/knowledge/ingestion/parsers.ts). */
export const FILE_ACCEPT = [
  '.pdf',
  '.docx',
  '.html',
  '.htm',
  '.md',
  '.markdown',
  '.txt',
  '.text',
  '.csv',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/html',
  'text/markdown',
  'text/plain',
  'text/csv',
].join(',');

/** "20 MB", "1.4 MB", "12 KB", "530 bytes" ("1,4 MB" in Spanish). */
export function formatBytes(n: number): string {
  const one = { maximumFractionDigits: 1 };
  if (n >= 1024 * 1024) return i18n.t('knowledge:size.mb', { size: formatNumber(n / 1024 / 1024, one) });
  if (n >= 1024) return i18n.t('knowledge:size.kb', { size: formatNumber(Math.round(n / 1024)) });
  return i18n.t('knowledge:size.bytes', { count: n });
}
