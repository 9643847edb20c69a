import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, srcDir } from '../support/sources.ts';

/**
 * One outbound HTTP client (src/lib/outbound/client.ts): outside lib/outbound nothing opens an
 * HTTP request itself, with node:http(s), undici or the global fetch. Webhooks, knowledge fetches
 * and the model and embeddings providers all go through it (the providers through its `fetch`).
 */
const src = srcDir;

/** The ways a file could call out on its own, found in its text. */
function callsOut(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:https?'/g)) {
    const names = m[1]!.split(',').map((n) => n.trim());
    if (names.some((n) => /^(request|get)(\s+as\s+\w+)?$/.test(n))) found.push(m[0]);
  }
  if (/\bhttps?\.(request|get)\(/.test(text)) found.push('http(s).request(');
  if (/from\s*'undici'/.test(text)) found.push("from 'undici'");
  // The global fetch: a call to `fetch(` where the file does not bind its own `fetch` (a parameter).
  if (/(?<![.\w])fetch\(/.test(text) && !/[(,][ \t]*fetch[ \t]*:[ \t]*[A-Z]/.test(text)) found.push('fetch(');
  if (/globalThis\.fetch\b/.test(text)) found.push('globalThis.fetch');
  return found;
}

const files = sourceFiles().map((file) => ({
  path: relative(src, file),
  text: readFileSync(file, 'utf8'),
}));

describe('one outbound HTTP client', () => {
  it('finds the client and its callers', () => {
    expect(files.map((f) => f.path)).toContain('lib/outbound/client.ts');
    expect(callsOut("import { request } from 'node:https';")).toEqual([
      "import { request } from 'node:https'",
    ]);
    expect(callsOut('const res = await fetch(url);')).toEqual(['fetch(']);
  });

  it('nothing outside lib/outbound opens an HTTP request itself', () => {
    const offending = files
      .filter((f) => !f.path.startsWith('lib/outbound/'))
      .flatMap((f) => callsOut(f.text).map((how) => `${f.path}: ${how}`));
    expect(offending).toEqual([]);
  });
});
