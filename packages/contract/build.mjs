// Compiles the contract to plain JavaScript in dist/ for the compiled server (`npm run build`):
// `node --conditions=parley-dist apps/server/dist/main.js` resolves `@parley/contract/*` there
// (package.json "exports"). Everything else (tsx, vitest, the dashboard's and widget's bundlers,
// the type checks) reads src/ directly, so nothing needs building during development.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
rmSync(new URL('dist/', import.meta.url), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: here,
  stdio: 'inherit',
});
if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status ?? result.signal})`);
console.log('contract: built packages/contract/dist');
