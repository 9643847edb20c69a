import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard (docs/dashboard.md): built into dist/, which the server serves at `/`
 * (apps/server/src/features/web/web.routes.ts). `npm run dev` proxies /api to a local server.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  logLevel: 'warn',
});
