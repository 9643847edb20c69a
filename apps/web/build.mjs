// Builds the dashboard into dist/ with Vite (docs/dashboard.md: `npm install` and `npm start` build
// it with no extra step). `node build.mjs` always builds; `--if-missing` only when dist/ has no
// index.html (the `prestart` path, so a checkout without the install step still starts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
export const INDEX = fileURLToPath(new URL('dist/index.html', import.meta.url));

export async function buildWeb() {
  const { build } = await import('vite');
  const started = performance.now();
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn' });
  console.log(`dashboard: built apps/web/dist in ${Math.round(performance.now() - started)} ms`);
}

export async function ensureWebBuilt() {
  if (!existsSync(INDEX)) await buildWeb();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await (process.argv.includes('--if-missing') ? ensureWebBuilt() : buildWeb());
}
