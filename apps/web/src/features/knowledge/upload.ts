import { ApiError, type Data, errorFrom } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import type { SourceDetail } from './types.ts';

/**
 * `POST /api/assistants/{id}/sources/files` (docs/knowledge.md): one file per request as
 * multipart/form-data. The api.ts helpers send JSON only; the browser sets the multipart
 * boundary itself when the body is a FormData. Errors (400 wrong type, 413 too big) come back
 * as `ApiError` with the server's sentence.
 */
export async function uploadFile(assistantId: string, file: File): Promise<SourceDetail> {
  const body = new FormData();
  body.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch(`/api/assistants/${assistantId}/sources/files`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      body,
    });
  } catch {
    throw new ApiError(0, 'network', i18n.t('knowledge:files.network'));
  }
  if (!res.ok) throw await errorFrom(res);
  return ((await res.json()) as Data<SourceDetail>).data;
}
