import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '../support/harness.ts';

/**
 * Decoded bodies of the mails written to DATA_DIR/mail for `to` (the file transport,
 * docs/configuration.md "Email").
 */
export function mailsTo(t: TestApp, to: string): string[] {
  const dir = join(t.dataDir, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(`To: ${to}`))
    .map((m) =>
      m
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16))),
    );
}

/** The newest export download link mailed to `to`, as a path. */
export function exportLink(t: TestApp, to: string): string | undefined {
  const mails = mailsTo(t, to);
  const match = /http:\/\/parley\.test(\/api\/account\/exports\/[A-Za-z0-9_-]+)/.exec(mails.at(-1) ?? '');
  return match?.[1];
}
