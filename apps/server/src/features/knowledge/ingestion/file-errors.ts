/**
 * What can go wrong with an uploaded file, each shown to the user as the source's `error`
 * (docs/knowledge.md "Hostile and broken files"). Plain classes, so the parse worker and the
 * server agree on them.
 */

/** The file's type is not one Parley reads (a 400 at upload). */
export class UnsupportedFileError extends Error {}

/** The file is damaged, truncated or not what its name says. */
export class CorruptFileError extends Error {}

/** The file is over a configured limit (unpacked size, parts, ratio, memory, time); says which and what to do. */
export class FileLimitError extends Error {}

/** How a file error crosses a thread or process boundary: its kind and its message. */
export type FileErrorType = 'limit' | 'corrupt' | 'unsupported' | 'unexpected';

export const fileErrorType = (err: unknown): FileErrorType =>
  err instanceof FileLimitError
    ? 'limit'
    : err instanceof CorruptFileError
      ? 'corrupt'
      : err instanceof UnsupportedFileError
        ? 'unsupported'
        : 'unexpected';

/** The error again on the other side; an unexpected one becomes a plain Error with `message`. */
export function fileError(type: FileErrorType, message: string): Error {
  if (type === 'limit') return new FileLimitError(message);
  if (type === 'corrupt') return new CorruptFileError(message);
  if (type === 'unsupported') return new UnsupportedFileError(message);
  return new Error(message);
}
