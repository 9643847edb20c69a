import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No source or test file over 400 lines (docs/architecture.md "Rules": split by topic before
 * that, shared setup into a helper). Every file git tracks counts, tests and benchmarks included;
 * generated drizzle migrations (SQL, with their snapshots) are not TypeScript and are left aside.
 */
const MAX_LINES = 400;
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const generated = /(^|\/)(migrations|dist|node_modules)\//;

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('file length', () => {
  it(`every tracked .ts, .tsx and .mjs file has at most ${MAX_LINES} lines`, () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !generated.test(f) && existsSync(join(root, f)));
    expect(files.length).toBeGreaterThan(300);
    const long = files
      .map((f) => ({ f, n: lineCount(readFileSync(join(root, f), 'utf8')) }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n} lines`);
    expect(long, 'split these by topic').toEqual([]);
  });

  it('counts lines as an editor shows them', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount(`${'x\n'.repeat(401)}`)).toBe(401);
  });
});
