import type { SourceType } from '@parley/contract/api-types';
import type { Source } from '../../api.ts';

/**
 * A source as `GET /api/assistants/{id}/sources` returns it (docs/knowledge.md; the server's type,
 * packages/contract/src/api-types.ts). `config` never holds a store's credentials (the server keeps them
 * encrypted and never returns them).
 */
export type SourceDetail = Source;
export type { SourceType };

/** Spreadsheets and stores are read live by the chat: nothing to index, nothing to re-sync. */
export const isLive = (type: string) => type === 'spreadsheet' || type === 'store';

export const TYPE_LABEL: Record<SourceType, string> = {
  text: 'Text',
  qa: 'Q&A',
  file: 'File',
  website: 'Website',
  spreadsheet: 'Spreadsheet, read live',
  store: 'Store, read live',
};

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

/** "20 MB", "1.4 MB", "12 KB", "530 bytes". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
}
