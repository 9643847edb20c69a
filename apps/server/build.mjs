// Compiles the server to plain JavaScript in dist/ (docs/deploy.md "Building"): `npm run build` runs
// it, `npm run start:prod` runs dist/main.js with plain `node`, no tsx.
//
// tsc rather than a bundle: every file of src/ becomes one file of dist/ at the same relative
// path, so what the code finds by `import.meta.url` (the dashboard and widget builds four folders
// up, worker entries beside their module) is where it is in src/; relative `.ts` imports are
// rewritten to `.js` (rewriteRelativeImportExtensions). Types are not checked here (`noCheck`):
// `npm run typecheck` is the check, and CI runs it before the build. The migration folders are
// data, not code: they are copied beside the compiled migrate.js.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const DIST = fileURLToPath(new URL('dist/', import.meta.url));
const DATA_FOLDERS = ['db/migrations', 'db/vector-migrations'];

export function buildServer() {
  const started = performance.now();
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: here,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status ?? result.signal})`);
  for (const folder of DATA_FOLDERS) {
    cpSync(new URL(`src/${folder}`, import.meta.url), new URL(`dist/${folder}`, import.meta.url), {
      recursive: true,
    });
  }
  console.log(`server: built apps/server/dist in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildServer();
