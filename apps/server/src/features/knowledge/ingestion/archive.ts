import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { CorruptFileError, FileLimitError } from './file-errors.ts';

/**
 * The checks a zip archive (a DOCX) passes before any parser unpacks it (docs/knowledge.md
 * "Hostile and broken files"). yauzl reads the central directory without inflating anything; then
 * each entry is inflated once as a stream and thrown away, counting bytes, because a directory
 * can lie: an entry that inflates to more than it declares is refused at the first extra byte.
 * Only then does mammoth (JSZip) see the file, so it never holds more than the limit.
 */
export type ArchiveLimits = {
  /** Declared and actual unpacked size of all entries together. */
  maxUnpackedBytes: number;
  maxEntries: number;
  /** Unpacked : packed, per entry of at least RATIO_FROM_BYTES and for the whole archive. */
  maxRatio: number;
};

const MB = 1024 * 1024;

/** The same defaults as FILE_MAX_UNPACKED_MB, FILE_MAX_ENTRIES and FILE_MAX_COMPRESSION_RATIO (config.ts). */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxUnpackedBytes: 200 * MB,
  maxEntries: 10_000,
  maxRatio: 100,
};

/** Small entries (styles, relationships) compress very well and harm no one; the ratio is judged above this. */
export const RATIO_FROM_BYTES = MB;

const SAVE_AGAIN = 'Open it in Word and save it again, or save it as PDF, and upload that file.';

export async function checkArchive(buffer: Buffer, limits: ArchiveLimits, what = 'DOCX'): Promise<void> {
  const zip = await open(buffer, what);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new FileLimitError(
        `The file holds ${zip.entryCount} parts, more than ${limits.maxEntries} (the limit, FILE_MAX_ENTRIES). ${SAVE_AGAIN}`,
      );
    }
    const entries = await readEntries(zip, what);
    let declared = 0;
    let packed = 0;
    for (const e of entries) {
      declared += e.uncompressedSize;
      packed += e.compressedSize;
      if (declared > limits.maxUnpackedBytes) throw tooLarge(limits);
      if (e.uncompressedSize >= RATIO_FROM_BYTES && e.uncompressedSize > e.compressedSize * limits.maxRatio) {
        throw tooCompressed(limits);
      }
    }
    if (declared >= RATIO_FROM_BYTES && declared > packed * limits.maxRatio) throw tooCompressed(limits);
    // The directory may lie: inflate every entry once, discarding, and count what really comes out.
    let actual = 0;
    for (const e of entries) {
      if (e.fileName.endsWith('/')) continue;
      actual = await drain(zip, e, actual, limits, what);
    }
  } finally {
    zip.close();
  }
}

const tooLarge = (limits: ArchiveLimits) =>
  new FileLimitError(
    `The file unpacks to more than ${Math.round(limits.maxUnpackedBytes / MB)} MB (the limit, FILE_MAX_UNPACKED_MB). Split it into smaller files or save it as PDF.`,
  );

const tooCompressed = (limits: ArchiveLimits) =>
  new FileLimitError(
    `The file is compressed more than ${limits.maxRatio} to 1 (the limit, FILE_MAX_COMPRESSION_RATIO), as zip bombs are. ${SAVE_AGAIN}`,
  );

const damaged = (what: string, err: unknown) =>
  new CorruptFileError(
    `The ${what} is damaged: it is not a readable zip archive (${(err as Error).message}). ${SAVE_AGAIN}`,
  );

function open(buffer: Buffer, what: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(damaged(what, err)) : resolve(zip)),
    );
  });
}

function readEntries(zip: ZipFile, what: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (e: Entry) => {
      entries.push(e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err) => reject(damaged(what, err)));
    zip.readEntry();
  });
}

/** Inflates one entry and throws the bytes away; the running total past the limit stops it. */
function drain(zip: ZipFile, entry: Entry, before: number, limits: ArchiveLimits, what: string) {
  return new Promise<number>((resolve, reject) => {
    zip.openReadStream(entry, (err, stream?: Readable) => {
      if (err || !stream) return reject(damaged(what, err));
      let total = before;
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.maxUnpackedBytes) {
          stream.destroy();
          reject(tooLarge(limits));
        }
      });
      stream.once('error', (e) =>
        // yauzl: "too many bytes in the stream" when an entry inflates past its declared size
        reject(/too many bytes|too few bytes/.test(e.message) ? lied(what) : damaged(what, e)),
      );
      stream.once('end', () => resolve(total));
    });
  });
}

const lied = (what: string) =>
  new CorruptFileError(
    `The ${what} is damaged or crafted: a part unpacks to a different size than the file declares. ${SAVE_AGAIN}`,
  );
