/** PROTOTYPE tracing (not for commit). */

import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
export const als = new AsyncLocalStorage<Record<string, number>>();
const rows: Record<string, number>[] = [];
export function traceStart(): Record<string, number> {
  const r: Record<string, number> = { t0: performance.now() };
  if (process.env.CHAT_TRACE) rows.push(r);
  return r;
}
export function mark(r: Record<string, number> | undefined, name: string) {
  if (r && !(name in r)) r[name] = performance.now() - r.t0!;
}
if (process.env.CHAT_TRACE) {
  process.on('SIGTERM', () => {
    writeFileSync(process.env.CHAT_TRACE!, JSON.stringify(rows));
  });
}
