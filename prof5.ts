import { sql } from 'drizzle-orm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from './apps/server/src/bootstrap.ts';
import { loadConfig } from './apps/server/src/config.ts';
import { openDatabase } from './apps/server/src/db/client.ts';
import { migrateDatabase } from './apps/server/src/db/migrate.ts';
import { ingestionStep } from './apps/server/src/features/knowledge/ingest.jobs.ts';
const W = 'refund shipping invoice warranty return parcel courier account password billing discount coupon order tracking size colour stock delivery payment card'.split(' ');
const d = await openDatabase({ kind: 'pglite' });
await migrateDatabase(d);
const ctx = createContext(loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'p-')), LOG_LEVEL: 'silent' }), d);
await d.db.execute(sql`insert into users(id,email,name) values('u','e','n')`);
await d.db.execute(sql`insert into workspaces(id,name,slug,owner_id) values('w','w','w','u')`);
await d.db.execute(sql`insert into assistants(id,workspace_id,name) values('a','w','a')`);
for (const [i, n] of [[1, 2000], [2, 2000]] as const) {
  const text = Array.from({ length: n }, (_, k) => `## S${k}\n\n` + Array.from({ length: 55 }, (_, j) => W[(k * 7 + j * 3 + i) % W.length]).join(' ') + '.').join('\n\n');
  await d.db.execute(sql`insert into knowledge_sources(id,workspace_id,assistant_id,type,name,config) values(${'s' + i},'w','a','text','s',${JSON.stringify({ text })}::jsonb)`);
  const t = performance.now();
  await ingestionStep(ctx, 1);
  console.log('run', i, (n / ((performance.now() - t) / 1000)).toFixed(0), 'chunks/s');
}
await ctx.limits.close(); await d.close();
