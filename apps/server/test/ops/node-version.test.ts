import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `npm start` says in one line which Node lines are supported (README "Run it"). */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const script = `${root}scripts/node-version.mjs`;

/** Runs the check as `npm start` does; returns what it printed (stdout + stderr). */
function notice(...version: string[]): string {
  const out = spawnSync(process.execPath, [script, ...version], { encoding: 'utf8' });
  expect(out.status).toBe(0); // it never stops the start
  return `${out.stdout}${out.stderr}`;
}

describe('the Node version notice', () => {
  it('says nothing on the supported lines', () => {
    expect(notice('22.11.0')).toBe('');
    expect(notice('v24.21.0')).toBe('');
  });

  it('says in one line which versions are supported on any other', () => {
    for (const version of ['20.20.2', 'v18.19.0', '23.1.0']) {
      const said = notice(version);
      expect(said.trim().split('\n')).toHaveLength(1);
      expect(said).toContain('Node.js 22 or 24');
      expect(said).toContain(version.replace(/^v/, ''));
    }
  });

  it('checks the running Node when given no version', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(notice() === '').toBe(major === 22 || major === 24);
  });

  it('runs before npm start, and the README says it before the commands', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prestart).toMatch(/^node scripts\/node-version\.mjs && /);
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const runIt = readme.slice(readme.indexOf('## Run it'));
    expect(runIt.indexOf('Node.js 22 or 24')).toBeGreaterThan(-1);
    expect(runIt.indexOf('Node.js 22 or 24')).toBeLessThan(runIt.indexOf('npm install && npm start'));
  });
});
