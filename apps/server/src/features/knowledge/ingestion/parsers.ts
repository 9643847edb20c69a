import { parse as parseCsv } from 'csv-parse/sync';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { getDocumentProxy } from 'unpdf';
import { type ArchiveLimits, checkArchive, DEFAULT_ARCHIVE_LIMITS } from './archive.ts';
import { CorruptFileError, UnsupportedFileError } from './file-errors.ts';
import { mayGoOn } from './parse-gate.ts';

/**
 * File and page parsing with well-kept libraries (docs/knowledge.md "Ingestion"): unpdf (pdf.js) for PDF,
 * mammoth for DOCX, turndown for HTML; all become Markdown-ish text for the one chunker. Uploaded
 * files are parsed in a worker thread (parse-isolated.ts), never on the server's event loop.
 */
export type FileKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv';
export type Parsed = { text: string; title?: string };

export { CorruptFileError, FileLimitError, UnsupportedFileError } from './file-errors.ts';

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  docx: 'docx',
  html: 'html',
  htm: 'html',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
  csv: 'csv',
};

const BY_MIME: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/csv': 'csv',
};

/** The kind from the file name, else the declared type; refuses anything else. */
export function detectKind(filename: string, mimetype?: string): FileKind {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  const kind =
    BY_EXTENSION[ext] ?? (mimetype ? BY_MIME[mimetype.split(';')[0]!.trim().toLowerCase()] : undefined);
  if (!kind)
    throw new UnsupportedFileError('Unsupported file type; use PDF, DOCX, HTML, Markdown, text or CSV');
  return kind;
}

/**
 * Parses in the calling thread: the server calls it through parseFileIsolated (parse-isolated.ts).
 * A PDF's buffer is taken over (detached) when it owns its memory: the caller does not use it again.
 */
export async function parseFile(
  buffer: Buffer,
  kind: FileKind,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<Parsed> {
  switch (kind) {
    case 'pdf':
      return parsePdf(buffer);
    case 'docx':
      return parseDocx(buffer, limits);
    case 'html':
      return htmlToMarkdown(decodeText(buffer));
    case 'csv':
      return { text: csvToText(decodeText(buffer)) };
    default:
      return { text: decodeText(buffer) };
  }
}

function decodeText(buffer: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buffer);
  if (text.includes('\u0000')) throw new CorruptFileError('The file is binary, not text');
  return text.replace(/^\uFEFF/, '');
}

const EXPORT_AGAIN = 'Export or download it again and upload the new file.';

async function parsePdf(buffer: Buffer): Promise<Parsed> {
  if (buffer.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw new CorruptFileError('Not a valid PDF file');
  // A PDF ends with %%EOF (within its last 1 KB, as readers allow); without it the file was cut
  // short, and pdf.js would guess at what is left.
  if (!buffer.subarray(-1024).toString('latin1').includes('%%EOF')) {
    throw new CorruptFileError(
      `The PDF is incomplete: it ends before its last line (%%EOF). ${EXPORT_AGAIN}`,
    );
  }
  try {
    // pdf.js takes the bytes it is given over (it detaches them): a buffer that owns its memory
    // (the worker's, read or handed over for this parse) goes as it is, a slice of shared memory
    // (Node's small-buffer pool) as a copy. A large file is not copied again.
    const owned = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength;
    const pdf = await getDocumentProxy(owned ? new Uint8Array(buffer.buffer) : new Uint8Array(buffer));
    // Page by page, not all pages at once (unpdf's extractText): memory stays at one page's text
    // items, so a page tree that claims millions of pages runs into the time limit, not memory.
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      await mayGoOn();
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text.trim());
      page.cleanup();
    }
    // one paragraph break between pages keeps page text from running together
    return { text: pages.join('\n\n') };
  } catch (err) {
    throw new CorruptFileError(`Could not read the PDF: ${(err as Error).message}. ${EXPORT_AGAIN}`);
  }
}

async function parseDocx(buffer: Buffer, limits: ArchiveLimits): Promise<Parsed> {
  if (buffer.subarray(0, 2).toString('latin1') !== 'PK') throw new CorruptFileError('Not a valid DOCX file');
  await checkArchive(buffer, limits, 'DOCX');
  try {
    const { value } = await mammoth.convertToHtml({ buffer });
    return htmlToMarkdown(value);
  } catch (err) {
    throw new CorruptFileError(`Could not read the DOCX: ${(err as Error).message}`);
  }
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});
turndown.remove(['script', 'style', 'noscript', 'nav', 'footer', 'iframe', 'form', 'button', 'head']);

/** HTML → Markdown with page chrome removed; headings survive for the chunker. */
export function htmlToMarkdown(html: string): Parsed {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();
  const main =
    /<main[\s>][\s\S]*<\/main>/i.exec(html)?.[0] ?? /<article[\s>][\s\S]*<\/article>/i.exec(html)?.[0];
  const text = turndown
    .turndown(main ?? html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return title ? { text, title: decodeEntities(title) } : { text };
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** Each row becomes one paragraph of `column: value` pairs, so a row is never split. */
function csvToText(csv: string): string {
  let rows: string[][];
  try {
    rows = parseCsv(csv, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (err) {
    throw new CorruptFileError(`Could not read the CSV: ${(err as Error).message}`);
  }
  const [header, ...body] = rows;
  if (!header) return '';
  return body
    .map((row) =>
      row
        .map((cell, i) => (cell.trim() ? `${header[i]?.trim() || `column ${i + 1}`}: ${cell.trim()}` : ''))
        .filter(Boolean)
        .join('; '),
    )
    .filter(Boolean)
    .join('\n\n');
}
