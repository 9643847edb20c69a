import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/server/src/, which the conventions tests read as text. */
export const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Every .ts file under `dir` (absolute paths), and .tsx ones too when asked (the dashboard's), for
 * tests that check the sources' text.
 */
export function sourceFiles(dir = srcDir, withTsx = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, withTsx);
    return entry.name.endsWith('.ts') || (withTsx && entry.name.endsWith('.tsx')) ? [path] : [];
  });
}
