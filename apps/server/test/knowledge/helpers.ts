import { ingestionStep } from '../../src/features/knowledge/ingestion/ingest.jobs.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

/** The factory lives in test/support/factories.ts; this name stays for files that import it from here. */
export { addSource } from '../support/factories.ts';

/** Runs the ingestion worker until the queue is empty. */
export async function drainIngestion(t: TestApp) {
  for (let i = 0; i < 100; i++) {
    if ((await ingestionStep(t.ctx, 5)) === 0) return;
  }
  throw new Error('ingestion did not drain');
}

export async function getSource(t: TestApp, user: TestUser, assistantId: string, sourceId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/sources/${sourceId}`,
    headers: user.headers,
  });
  return res.json().data as { id: string; status: string; error: string | null; chunkCount: number };
}

export async function search(t: TestApp, user: TestUser, assistantId: string, q: string, k = 5) {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/search?q=${encodeURIComponent(q)}&k=${k}`,
    headers: user.headers,
  });
  if (res.statusCode !== 200) throw new Error(`search: ${res.statusCode} ${res.body}`);
  return res.json().data as Array<{
    chunkId: string;
    sourceId: string;
    content: string;
    score: number;
    heading: string;
  }>;
}

/** A multipart body with one file part. */
export function multipart(filename: string, content: Buffer, mimeType: string) {
  const boundary = `----parley${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The default limits of a parse (docs/knowledge.md "Hostile and broken files"), for parse tests. */
export const parseLimits = {
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 100,
  memoryMb: 256,
  timeoutMs: 30_000,
};
