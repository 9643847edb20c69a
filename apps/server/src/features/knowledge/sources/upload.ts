import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../http/errors.ts';
import type { Upload } from './sources.service.ts';

const malformed = (why: string) =>
  new AppError('bad_request:api', `Malformed multipart body: ${why}`, { file: why });

/**
 * What a multipart parsing failure means for the sender: a file over the limit → 413; anything
 * else wrong with the body → 400 saying what (never a 500). undefined for errors that are not the
 * body's fault.
 */
function uploadError(err: unknown, limit: number): AppError | undefined {
  const { code, message = '' } = (err ?? {}) as { code?: string; message?: string };
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
        'payload_too_large:api',
        `Files are limited to ${Math.round(limit / 1024 / 1024)} MB`,
      );
    case 'FST_FILES_LIMIT':
      return new AppError('bad_request:api', 'Send one file per request', {
        file: 'Only one file per request',
      });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return malformed('too many parts; send one file and nothing else');
    case 'FST_PROTO_VIOLATION':
      return malformed('a part has a field name that is not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return malformed('the request was closed before the body ended');
  }
  if (/boundary not found/i.test(message)) return malformed('the Content-Type names no boundary');
  if (/unexpected end/i.test(message))
    return malformed('the body ended before its closing boundary (truncated?)');
  if (/malformed part header/i.test(message)) return malformed('a part header is malformed');
  return undefined;
}

/** Exactly one file from a multipart body; over the limit → 413, none or a broken body → 400. */
export async function readUpload(request: FastifyRequest, limit: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError('bad_request:api', 'Send the file as multipart/form-data', { file: 'Required' });
  }
  let upload: Upload | undefined;
  try {
    // Two files allowed by the parser, so a second one is seen and refused rather than dropped.
    for await (const part of request.parts({
      limits: { fileSize: limit, files: 2, fields: 10, parts: 12 },
    })) {
      if (part.type !== 'file') continue;
      if (upload) throw uploadError({ code: 'FST_FILES_LIMIT' }, limit);
      const content = await part.toBuffer();
      const filename = sanitizeFilename(part.filename).slice(0, 200) || 'upload';
      upload = { filename, mimeType: part.mimetype.slice(0, 200), content };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw uploadError(err, limit) ?? err;
  }
  if (!upload) throw new AppError('bad_request:api', 'No file in the request', { file: 'Required' });
  return upload;
}

/** Path separators and control characters never reach storage or logs. */
function sanitizeFilename(name: string): string {
  return Array.from(name, (ch) => (ch === '/' || ch === '\\' || ch.charCodeAt(0) < 32 ? '_' : ch)).join('');
}
