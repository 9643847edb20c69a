import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, srcDir } from '../support/sources.ts';

/**
 * The layers of docs/architecture.md "Rules" as a test: `lib/` imports nothing of ours, `http/` imports no
 * feature, and no feature imports `app.ts` (features get their types from `http/feature.ts`).
 * Type-only imports count too: they are a dependency a reader has to follow.
 */
const src = srcDir;

/** Every relative import of a file, as a path under src/ (e.g. `features/chat/chat.service.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)].map(
    (m) => m[1]!,
  );
  const dynamic = [...text.matchAll(/import\('(\.[^']+)'\)/g)].map((m) => m[1]!);
  return [...specs, ...dynamic].map((s) => relative(src, resolve(dirname(file), s)));
}

const files = sourceFiles().map((file) => ({ path: relative(src, file), imports: importsOf(file) }));

const offending = (from: (path: string) => boolean, banned: (target: string) => boolean) =>
  files.flatMap((f) =>
    from(f.path) ? f.imports.filter(banned).map((target) => `${f.path} → ${target}`) : [],
  );

describe('import boundaries', () => {
  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.find((f) => f.path === 'app.ts')?.imports).toContain('features/index.ts');
  });

  it('lib/ imports nothing of ours', () => {
    expect(
      offending(
        (p) => p.startsWith('lib/'),
        (t) => !t.startsWith('lib/'),
      ),
    ).toEqual([]);
  });

  it('http/ imports no feature', () => {
    expect(
      offending(
        (p) => p.startsWith('http/'),
        (t) => t.startsWith('features/'),
      ),
    ).toEqual([]);
  });

  it('no feature imports app.ts', () => {
    expect(
      offending(
        (p) => p.startsWith('features/'),
        (t) => t === 'app.ts',
      ),
    ).toEqual([]);
  });
});
