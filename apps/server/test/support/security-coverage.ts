import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './harness.ts';

/**
 * House rule (docs/architecture.md "Rules"): every operation of /api/openapi.json that takes a credential has
 * an entry in the shared security suite. Each suite records the operation its requests reached
 * (as the document names it); the conventions test records the document's credentialed
 * operations; after a whole run, the global teardown (global-setup.ts) fails naming any
 * operation no suite reached.
 */
// One folder per run (vitest.config.ts names it): two runs side by side (CI's two database passes)
// never reset or read each other's records.
const dir =
  process.env.PARLEY_SECURITY_COVERAGE_DIR ??
  fileURLToPath(new URL('../../.tmp/security-coverage', import.meta.url));

type Doc = { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };

const pattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

const openapi = async (t: TestApp) =>
  (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as Doc;

/** Writes the operations a suite's requests reached (`METHOD /documented/{path}`). */
export async function recordCovered(t: TestApp, requests: Array<{ method: string; url: string }>) {
  const doc = await openapi(t);
  const paths = Object.keys(doc.paths).map((path) => ({ path, re: pattern(path) }));
  const ops = new Set<string>();
  for (const r of requests) {
    const url = r.url.split('?')[0] ?? '';
    const hit = paths.find((p) => p.re.test(url) && doc.paths[p.path]?.[r.method.toLowerCase()]);
    if (hit) ops.add(`${r.method.toUpperCase()} ${hit.path}`);
  }
  write(`covered-${process.pid}-${Math.random().toString(36).slice(2)}.json`, [...ops]);
}

/** Writes the credentialed operations of the document (session cookie or bearer token). */
export async function recordOperations(t: TestApp) {
  const doc = await openapi(t);
  const ops: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      if (schemes.some((s) => s === 'session' || s === 'bearer')) ops.push(`${method.toUpperCase()} ${path}`);
    }
  }
  write('operations.json', ops);
  return ops;
}

function write(name: string, ops: string[]) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), JSON.stringify(ops));
}

export const resetCoverage = () => rmSync(dir, { recursive: true, force: true });

/** The credentialed operations no suite reached; undefined when the document was not recorded. */
export function uncovered(): string[] | undefined {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (!files.includes('operations.json')) return undefined;
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as string[];
  const covered = new Set(files.filter((f) => f.startsWith('covered-')).flatMap(read));
  return read('operations.json').filter((op) => !covered.has(op));
}
