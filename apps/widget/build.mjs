// Builds the embeddable script into ONE file, dist/widget.js (docs/widget-script.md).
//
// esbuild rather than Vite's library mode (the first plan): esbuild is already a
// production dependency of the server (through tsx, which `npm start` runs), so the script can be
// built on a production install (`npm ci --omit=dev`) and by the server itself when dist/ is
// missing; Vite only arrives with vitest, a dev dependency. A plain-TS IIFE needs none of Vite's
// plugins, and esbuild builds it in tens of milliseconds, so `postinstall` stays fast.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
export const widgetFile = join(here, 'dist', 'widget.js');

/** Bundles src/main.ts; writes dist/widget.js atomically. Returns raw and gzipped sizes in bytes. */
export async function buildWidget() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(here, 'src', 'main.ts')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  mkdirSync(dirname(widgetFile), { recursive: true });
  // Written under a temporary name, then renamed: a server reading the file never sees half of it.
  const tmp = `${widgetFile}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, widgetFile);
  return { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bytes, gzipBytes } = await buildWidget();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`widget.js: ${kb(bytes)} (${kb(gzipBytes)} gzipped)`);
}
