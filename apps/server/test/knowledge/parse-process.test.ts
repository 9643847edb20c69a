import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileLimitError } from '../../src/features/knowledge/ingestion/file-errors.ts';
import { parseInProcess, parseProcesses } from '../../src/features/knowledge/ingestion/parse-process.ts';
import { largePdf, pageTreeBomb, zipBomb } from '../support/hostile-files.ts';
import { waitFor } from '../support/wait.ts';
import { parseLimits } from './helpers.ts';

/**
 * docs/decisions/0014-hostile-files.md: the server parses files in a process of its own, below its
 * priority, each file in a worker thread with its limits. A file's error crosses as its
 * kind; a parse process that dies fails the files it held, and the next file starts a new one.
 */
const limits = parseLimits;
const dir = mkdtempSync(join(tmpdir(), 'parley-parse-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string, content: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { path };
};

/** Per thread of `pid`: its nice value and scheduling policy (proc(5), /proc/pid/task/tid/stat). */
function schedulingOf(pid: number) {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

describe('the parse process', () => {
  it('parses in another process, one for file after file, and a file error keeps its kind', async () => {
    const before = parseProcesses().started;
    const parsed = await parseInProcess(at('a.pdf', largePdf(1, 3)), 'pdf', limits);
    expect(parsed.text).toContain('refunds are processed within five business days');
    // At most one started for it: a file before this one in the same worker may have started it.
    const first = parseProcesses();
    expect(first.started - before).toBeLessThanOrEqual(1);
    const { pid } = first;
    expect(pid).toBeTypeOf('number');
    expect(pid).not.toBe(process.pid);
    expect((await parseInProcess(at('b.txt', Buffer.from('Plain words.')), 'text', limits)).text).toContain(
      'Plain words',
    );
    const refused = await parseInProcess(at('bomb.docx', zipBomb(2048)), 'docx', limits).catch((e) => e);
    expect(refused).toBeInstanceOf(FileLimitError);
    expect(refused.message).toMatch(/unpacks to more than 200 MB/);
    await expect(parseInProcess({ path: join(dir, 'gone.pdf') }, 'pdf', limits)).rejects.toThrow(
      /The uploaded file is missing/,
    );
    // The files after the first went to the same process.
    expect(parseProcesses()).toEqual(first);
  });

  it.skipIf(process.platform !== 'linux')(
    "every thread of it runs below the server's priority (nice 10)",
    async () => {
      await parseInProcess(at('c.txt', Buffer.from('Priority.')), 'text', limits);
      const threads = schedulingOf(parseProcesses().pid!);
      expect(threads.length).toBeGreaterThan(1);
      for (const t of threads) expect(t).toEqual({ nice: 10, policy: 0 }); // SCHED_OTHER
      // the server's own threads keep theirs
      for (const t of schedulingOf(process.pid)) expect(t.nice).toBe(0);
    },
  );

  it('a stop signal to the group leaves the parse to the server: the process keeps parsing', async () => {
    const parsing = parseInProcess(at('e.pdf', largePdf(2, 3)), 'pdf', limits);
    const { pid } = parseProcesses();
    process.kill(pid!, 'SIGTERM');
    process.kill(pid!, 'SIGINT');
    expect((await parsing).text).toContain('Shipping to forty countries');
    expect(parseProcesses().pid).toBe(pid);
  });

  it('a parse process that dies fails the files it held; the next file gets a new one', async () => {
    const before = parseProcesses().started;
    const endless = parseInProcess(at('tree.pdf', pageTreeBomb(1000)), 'pdf', limits);
    const { pid } = parseProcesses();
    await new Promise((r) => setTimeout(r, 500)); // the parse is under way
    process.kill(pid!, 'SIGKILL');
    await expect(endless).rejects.toThrow(/The parse process stopped \(SIGKILL\)/);
    await waitFor(async () => parseProcesses().pid === undefined, 5_000, 'the dead process to be let go');
    const parsed = await parseInProcess(at('d.pdf', largePdf(1, 2)), 'pdf', limits);
    expect(parsed.text).toContain('Shipping to forty countries');
    expect(parseProcesses().started).toBe(before + 1);
    expect(parseProcesses().pid).not.toBe(pid);
  });
});
