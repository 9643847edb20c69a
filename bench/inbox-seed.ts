/**
 * The inbox benchmark's data (bench/inbox.ts, docs/performance.md "Inbox"): conversations and
 * members written straight into the database, and PostgreSQL's plan of the list's query.
 */
import { join } from 'node:path';

/** `total` (100,000 by default) conversations over 4 assistants, 3 channels, 3 statuses and 4 assignees (or none). */
export async function seedInbox(
  env: NodeJS.ProcessEnv,
  workspaceId: string,
  assistantIds: string[],
  members: string[],
  total: number,
) {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { sql } = await import('drizzle-orm');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    const list = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
    await database.db.execute(sql`
      insert into conversations (id, workspace_id, assistant_id, channel, status, assignee_id, title,
                                 message_count, last_message_at, handed_off_at, created_at, updated_at)
      select 'conv_bench' || lpad(g::text, 8, '0'), ${workspaceId},
             (${list(assistantIds)})[1 + g % 4],
             (array['widget','widget','widget','chat','sms'])[1 + g % 5],
             (array['open','open','handoff','closed'])[1 + (g / 7) % 4],
             case when g % 3 = 0 then (${list(members)})[1 + (g / 3) % 4] else null end,
             'Bench conversation ' || g, 2,
             now() - (g || ' seconds')::interval,
             case when g % 5 = 3 and g % 2 = 0 then now() - (g || ' seconds')::interval else null end,
             now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
        from generate_series(1, ${total}) g`);
    if (env.DATABASE_URL) await database.db.execute(sql`analyze conversations`);
  } finally {
    await database.close();
  }
}

/**
 * The plan PostgreSQL picks for the list's query under a few filters, on the first page and 2,000
 * rows in, with its time in the database (EXPLAIN ANALYZE), printed with the results.
 */
export async function explain(env: NodeJS.ProcessEnv, workspaceId: string, filters: Array<[string, string]>) {
  if (!env.DATABASE_URL) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const base =
    "from conversations where workspace_id = $1 and (channel <> 'chat' or handed_off_at is not null)";
  const summary = (rows: Array<Record<string, string>>) => {
    const plan = rows.map((r) => r['QUERY PLAN']).join(' / ');
    const index = /Index (?:Only )?Scan(?: Backward)? using (\w+)/.exec(plan)?.[1] ?? 'no index';
    const sort = /Sort/.test(plan) ? ', then a sort' : '';
    const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
    return `${index}${sort}; ${time} ms in the database`;
  };
  const order = 'order by last_message_at desc nulls last, id desc nulls last'; // as inbox.repo.ts
  try {
    console.log('\nquery plans (EXPLAIN ANALYZE, 26 rows):');
    for (const [label, where] of filters) {
      const { rows: deep } = await client.query(
        `select last_message_at, id ${base} ${where} ${order} offset 2000 limit 1`,
        [workspaceId],
      );
      const pages: Array<[string, string, unknown[]]> = [['first page', '', [workspaceId]]];
      if (deep[0])
        pages.push([
          'rows 2,001-',
          'and (last_message_at, id) < ($2::timestamptz, $3)',
          [workspaceId, deep[0].last_message_at, deep[0].id],
        ]);
      for (const [page, cursor, values] of pages) {
        const { rows } = await client.query(
          `explain analyze select * ${base} ${where} ${cursor} ${order} limit 26`,
          values,
        );
        console.log(`  ${label}, ${page}: ${summary(rows)}`);
        if (label === 'no filter') {
          // Before: `id desc` (nulls first) against the indexes' `nulls last` added a sort step.
          const { rows: before } = await client.query(
            `explain analyze select * ${base} ${where} ${cursor} ${order.replace(/ nulls last$/, '')} limit 26`,
            values,
          );
          console.log(`    before, ordered "id desc": ${summary(before)}`);
        }
      }
    }
  } finally {
    await client.end();
  }
}

/** Members to assign, straight in the database. */
export async function seedMembers(env: NodeJS.ProcessEnv, workspaceId: string) {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const schema = await import('../apps/server/src/db/schema/index.ts');
  const { newId } = await import('../apps/server/src/lib/ids.ts');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    const ids = Array.from({ length: 4 }, () => newId('usr'));
    for (const id of ids) {
      await database.db
        .insert(schema.users)
        .values({ id, email: `${id}@example.com`, name: `Agent ${id.slice(-4)}` });
      await database.db.insert(schema.memberships).values({ workspaceId, userId: id, role: 'member' });
    }
    return ids;
  } finally {
    await database.close();
  }
}
