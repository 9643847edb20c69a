import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config.ts';

/** README.md documents every environment variable config.ts reads, with its real default. */
const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');

function configTable(): Map<string, string> {
  const start = readme.search(/^\| *Variable *\| *Default *\| *Meaning *\|/m);
  expect(start).toBeGreaterThan(-1);
  const rows = new Map<string, string>();
  for (const line of readme.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [name, value] = line
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    const m = /^`([A-Z0-9_]+)`$/.exec(name ?? '');
    expect(m, line).not.toBeNull();
    rows.set(m![1]!, value ?? '');
  }
  return rows;
}

describe('README configuration table', () => {
  it('lists exactly the variables of the env schema', () => {
    expect([...configTable().keys()].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('shows each default as the schema applies it', () => {
    const defaults = envSchema.parse({}) as Record<string, unknown>;
    for (const [name, cell] of configTable()) {
      const value = defaults[name];
      expect(cell, name).toBe(value === undefined ? '—' : `\`${String(value)}\``);
    }
  });

  it('gives exactly the two commands', () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]?.trim());
    expect(blocks).toEqual(['npm install && npm start', 'npm test']);
  });
});
