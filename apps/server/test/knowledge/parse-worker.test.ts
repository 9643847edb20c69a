import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseFileIsolated,
  parseWorkersStarted,
} from '../../src/features/knowledge/ingestion/parse-isolated.ts';
import { largePdf, pageTreeBomb, truncated, zipBomb } from '../support/hostile-files.ts';
import { parseLimits } from './helpers.ts';

/**
 * docs/decisions/0014-hostile-files.md: a parse worker that answered within its limits takes the
 * next file (starting one costs more than a typical parse); one that hit a limit is replaced, so
 * nothing of a hostile file reaches the next.
 */
const limits = parseLimits;

describe('the parse worker between files', () => {
  it('one worker reads good files one after another; a damaged file or a refused archive keeps it', async () => {
    // A file before this one in the same test worker may have left a worker waiting: at most one
    // starts for the first file, and none after it.
    const earlier = parseWorkersStarted();
    expect((await parseFileIsolated(largePdf(1, 3), 'pdf', limits)).text).toContain('refunds are processed');
    expect(parseWorkersStarted() - earlier).toBeLessThanOrEqual(1);
    const before = parseWorkersStarted() - 1;
    for (let i = 0; i < 2; i++) {
      const parsed = await parseFileIsolated(largePdf(1, 3), 'pdf', limits);
      expect(parsed.text).toContain('refunds are processed within five business days');
    }
    await expect(parseFileIsolated(truncated(largePdf(1, 3), 0.5), 'pdf', limits)).rejects.toThrow(
      /The PDF is incomplete/,
    );
    await expect(parseFileIsolated(zipBomb(2048), 'docx', limits)).rejects.toThrow(
      /unpacks to more than 200 MB/,
    );
    const parsed = await parseFileIsolated(Buffer.from('Plain words, parsed anew.'), 'text', limits);
    expect(parsed.text).toContain('Plain words');
    expect(parseWorkersStarted() - before).toBe(1);
  });

  it('a worker stopped at a limit is replaced by a fresh one for the next file', async () => {
    const before = parseWorkersStarted();
    await expect(
      parseFileIsolated(pageTreeBomb(1000), 'pdf', { ...limits, timeoutMs: 1_500 }),
    ).rejects.toThrow(/took longer than 1\.5 s/);
    const parsed = await parseFileIsolated(largePdf(1, 2), 'pdf', limits);
    expect(parsed.text).toContain('Shipping to forty countries');
    // the worker left waiting by the first test, then the one that timed out, then a fresh one
    expect(parseWorkersStarted() - before).toBe(1);
  });

  it('files parsed at once each get a worker, and every answer is its own', async () => {
    const texts = await Promise.all(
      ['first', 'second', 'third'].map((word) =>
        parseFileIsolated(Buffer.from(`the ${word} file`), 'text', limits),
      ),
    );
    expect(texts.map((p) => p.text.trim())).toEqual(['the first file', 'the second file', 'the third file']);
  });

  // A file that arrives slowly (a FIFO written late) keeps the worker waiting without using the CPU,
  // as a parse waits on a busy machine at the parse process's low priority.
  it.skipIf(process.platform !== 'linux')(
    'the time limit counts CPU time: a parse that waits is not stopped at it, only at four times it on the clock',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'parley-fifo-'));
      try {
        const slow = join(dir, 'slow');
        execFileSync('mkfifo', [slow]);
        const parsing = parseFileIsolated({ path: slow }, 'text', { ...limits, timeoutMs: 1_000 });
        await new Promise((r) => setTimeout(r, 2_500));
        await writeFile(slow, 'Arrived late, parsed all the same.');
        expect((await parsing).text).toContain('Arrived late');

        const never = join(dir, 'never');
        execFileSync('mkfifo', [never]);
        const started = performance.now();
        await expect(
          parseFileIsolated({ path: never }, 'text', { ...limits, timeoutMs: 1_000 }),
        ).rejects.toThrow(/did not finish within 4 s: the server was too busy/);
        expect(performance.now() - started).toBeGreaterThan(3_900);
        // the worker blocked on the FIFO was terminated; open it for writing once so nothing waits on it
        await writeFile(never, '').catch(() => undefined);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
