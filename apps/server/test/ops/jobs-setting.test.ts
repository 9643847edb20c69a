import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOB_NAMES, jobsFromSetting } from '../../src/jobs/catalog.ts';

/** docs/jobs.md "Which process runs which job": the JOBS setting. */
describe('JOBS', () => {
  it('all (the default, or empty) is every job of the catalog; none is none', () => {
    expect(jobsFromSetting('all')).toEqual([...JOB_NAMES]);
    expect(jobsFromSetting('')).toEqual([...JOB_NAMES]);
    expect(jobsFromSetting('none')).toEqual([]);
  });

  it('a list names the jobs, spaces and repeats forgiven', () => {
    expect(jobsFromSetting(' sms-inbound , sms-send,sms-inbound ')).toEqual(['sms-inbound', 'sms-send']);
  });

  it('an unknown name is refused with the known ones', () => {
    expect(() => jobsFromSetting('ingestion,answering')).toThrow(
      /JOBS names "answering", not a job of Parley\. Use all, none, or a comma-separated list of: event-dispatch, /,
    );
  });

  it('the server does not start with an unknown name, and says why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-jobs-setting-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: fileURLToPath(new URL('../../', import.meta.url)),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: dir,
          PORT: '0',
          JOBS: 'ingestion,sms',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Parley failed to start: Error: JOBS names "sms", not a job of Parley.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
