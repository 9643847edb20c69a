import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../http/errors.ts';
import type { Upload } from './sources.service.ts';

/** One file from a multipart body; over the limit → 413, no file → 400. */
export async function readUpload(request: FastifyRequest, limit: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError('bad_request:api', 'Send the file as multipart/form-data', { file: 'Required' });
  }
  const file = await request.file({ limits: { fileSize: limit, files: 1 } });
  if (!file) throw new AppError('bad_request:api', 'No file in the request', { file: 'Required' });
  const content = await file.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        'payload_too_large:api',
        `Files are limited to ${Math.round(limit / 1024 / 1024)} MB`,
      );
    }
    throw err;
  });
  const filename = sanitizeFilename(file.filename).slice(0, 200) || 'upload';
  return { filename, mimeType: file.mimetype.slice(0, 200), content };
}

/** Path separators and control characters never reach storage or logs. */
function sanitizeFilename(name: string): string {
  return Array.from(name, (ch) => (ch === '/' || ch === '\\' || ch.charCodeAt(0) < 32 ? '_' : ch)).join('');
}
