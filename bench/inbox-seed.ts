/**
 * The inbox benchmark's data (bench/inbox.ts, docs/performance.md "Inbox"): conversations and
 * members written straight into the database, and PostgreSQL's plan of the list's query.
 */
import { join } from 'node:path';

/**
 * The workspace's 13 labels (docs/labels.md) and the share of conversations, per mille, that
 * carries each. Each label is drawn on its own for each conversation (a hash of its number), so
 * the sets are skewed as a team's are: one common label (30%), a few of some percent, a rare one
 * (0.5%); about 55% of the conversations have none and about 10% two or more. The 13th, a past
 * campaign's, is only on the oldest tenth of the conversations (10% of them, 1% in all): the case
 * where walking the list newest first reads most of it before it fills a page.
 */
export const benchLabels = [
  { name: 'Billing', color: '#2563eb', perMille: 300 },
  { name: 'Shipping', color: '#16a34a', perMille: 60 },
  { name: 'Returns', color: '#ca8a04', perMille: 40 },
  { name: 'Bug', color: '#dc2626', perMille: 30 },
  { name: 'Feature request', color: '#9333ea', perMille: 25 },
  { name: 'VIP', color: '#db2777', perMille: 20 },
  { name: 'Refund', color: '#ea580c', perMille: 15 },
  { name: 'Account', color: '#0891b2', perMille: 12 },
  { name: 'Onboarding', color: '#65a30d', perMille: 10 },
  { name: 'Spam', color: '#57534e', perMille: 8 },
  { name: 'Partner', color: '#4f46e5', perMille: 6 },
  { name: 'Legal', color: '#be123c', perMille: 5 },
  { name: 'Summer sale', color: '#0d9488', perMille: 100, oldestTenthOnly: true },
];

/**
 * The workspace's SLA policies (docs/sla.md "Policies"). Each conversation in handoff is under one
 * of them (a hash of its number), its clocks drawn in `seedInbox`: half already answered (no first
 * response due), of those 30% waiting for the next response; 80% with a resolution target; due
 * times spread from a day ago to the next days; 15% with a breach recorded. The other
 * conversations have no clock, the tail of `sort=sla`.
 */
export const benchSlaPolicies = [
  { name: 'VIP', firstResponseMinutes: 15, nextResponseMinutes: 30, resolutionMinutes: 480, priority: 1 },
  { name: 'SMS', firstResponseMinutes: 60, nextResponseMinutes: 120, resolutionMinutes: null, priority: 2 },
  {
    name: 'Standard',
    firstResponseMinutes: 240,
    nextResponseMinutes: 480,
    resolutionMinutes: 2880,
    priority: 3,
  },
];

export type BenchLabel = {
  id: string;
  name: string;
  perMille: number;
  oldestTenthOnly: boolean;
  count: number;
};

/**
 * `total` (100,000 by default) conversations over 4 assistants, 3 channels, 3 statuses and 4
 * assignees (or none), with label sets drawn from `benchLabels`; returns the labels with the
 * number of conversations that hold each.
 */
export async function seedInbox(
  env: NodeJS.ProcessEnv,
  workspaceId: string,
  assistantIds: string[],
  members: string[],
  total: number,
): Promise<BenchLabel[]> {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const schema = await import('../apps/server/src/db/schema/index.ts');
  const { newId } = await import('../apps/server/src/lib/ids.ts');
  const { sql } = await import('drizzle-orm');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    const list = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
    /** A uniform draw in [0, 1) for conversation g, independent per `seed`. */
    const u = (seed: number) => sql.raw(`((hashint4extended(g, ${seed}) & 1048575) / 1048576.0)`);
    const labels = benchLabels.map((l) => ({ ...l, id: newId('lbl') }));
    await database.db
      .insert(schema.labels)
      .values(labels.map(({ id, name, color }) => ({ id, workspaceId, name, color })));
    // Label k is on conversation g when a hash of (g, k) falls under its share: independent draws.
    const labelRows = sql.join(
      labels.map((l, k) => {
        const afterG = l.oldestTenthOnly ? Math.floor(total * 0.9) : 0;
        return sql`(${k}::int, ${l.id}::text, ${l.name}::text, ${l.color}::text, ${l.perMille}::int, ${afterG}::int)`;
      }),
      sql`, `,
    );
    // Three SLA policies (docs/sla.md "Policies"); the conversations in handoff are under one of them.
    const policies = benchSlaPolicies.map((p) => ({ ...p, id: newId('sla'), workspaceId }));
    await database.db.insert(schema.slaPolicies).values(policies);
    await database.db.execute(sql`
      insert into conversations (id, workspace_id, assistant_id, channel, status, assignee_id, title,
                                 message_count, last_message_at, handed_off_at, created_at, updated_at,
                                 labels, sla_policy_id, sla_started_at, sla_replied_at, sla_first_due_at,
                                 sla_next_due_at, sla_resolution_due_at, sla_breaches)
      select 'conv_bench' || lpad(g::text, 8, '0'), ${workspaceId},
             (${list(assistantIds)})[1 + g % 4],
             (array['widget','widget','widget','chat','sms'])[1 + g % 5],
             (array['open','open','handoff','closed'])[1 + (g / 7) % 4],
             case when g % 3 = 0 then (${list(members)})[1 + (g / 3) % 4] else null end,
             'Bench conversation ' || g, 2,
             now() - (g || ' seconds')::interval,
             case when g % 5 = 3 and g % 2 = 0 then now() - (g || ' seconds')::interval else null end,
             now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval,
             coalesce((select jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color)
                                        order by l.k)
                         from (values ${labelRows}) l(k, id, name, color, per_mille, after_g)
                        where (hashint4extended(g, l.k) & 1048575) % 1000 < l.per_mille
                          and g > l.after_g), '[]'::jsonb),
             case when d.handoff then (${list(policies.map((p) => p.id))})[1 + (hashint4extended(g, 1000) & 1048575) % 3] end,
             case when d.handoff then d.started end,
             case when d.handoff and d.replied then d.started + interval '20 minutes' end,
             case when d.handoff and not d.replied then d.first_due end,
             case when d.handoff and d.replied and d.waiting then d.next_due end,
             case when d.handoff and d.resolution then d.resolution_due end,
             case when d.handoff and d.breached
                  then jsonb_build_array(jsonb_build_object('kind', 'first_response', 'at',
                         to_char((d.started + interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
                  else '[]'::jsonb end
        from generate_series(1, ${total}) g
        cross join lateral (
          -- The SLA draws (on the conversations in handoff only): independent hashes of (g, seed).
          -- Due times are whole milliseconds, as the server's own (JavaScript dates) are.
          select (g / 7) % 4 = 2 as handoff,
                 date_trunc('milliseconds', now() - ${u(1001)} * interval '2 days') as started,
                 ${u(1002)} < 0.5 as replied,
                 ${u(1003)} < 0.3 as waiting,
                 ${u(1004)} >= 0.2 as resolution,
                 ${u(1005)} < 0.15 as breached,
                 date_trunc('milliseconds', now() + (${u(1006)} * 3 - 1) * interval '1 day') as first_due,
                 date_trunc('milliseconds', now() + (${u(1007)} * 2 - 0.5) * interval '1 day') as next_due,
                 date_trunc('milliseconds', now() + (${u(1008)} * 6 - 1) * interval '1 day') as resolution_due
        ) d`);
    if (env.DATABASE_URL) await database.db.execute(sql`analyze conversations, conversation_labels`);
    const rowsOf = async <T>(q: ReturnType<typeof sql>) =>
      ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;
    const rows = await rowsOf<{ id: string; n: number }>(sql`
      select l.id, count(*)::int as n
        from conversations c, jsonb_array_elements(c.labels) e
        join labels l on l.id = e->>'id'
       where c.workspace_id = ${workspaceId}
       group by l.id`);
    const counts = new Map(rows.map((r) => [r.id, Number(r.n)]));
    const [sets] = await rowsOf<{ none: number; several: number }>(sql`
      select count(*) filter (where jsonb_array_length(labels) = 0)::int as none,
             count(*) filter (where jsonb_array_length(labels) >= 2)::int as several
        from conversations where workspace_id = ${workspaceId}`);
    const [sla] = await rowsOf<{ handoff: number; due: number; tail: number; breached: number }>(sql`
      select count(*) filter (where status = 'handoff')::int as handoff,
             count(*) filter (where least(sla_first_due_at, sla_next_due_at, sla_resolution_due_at) is not null)::int as due,
             count(*) filter (where status = 'handoff' and sla_first_due_at is null and sla_next_due_at is null
                                and sla_resolution_due_at is null)::int as tail,
             count(*) filter (where jsonb_array_length(sla_breaches) > 0)::int as breached
        from conversations where workspace_id = ${workspaceId} and (channel <> 'chat' or handed_off_at is not null)`);
    console.log(
      `SLA (in the inbox): ${sla?.handoff} in handoff under ${policies.length} policies, ${sla?.due} with a due time ` +
        `(past and next days), ${sla?.tail} in handoff with no clock running, ${sla?.breached} with a breach`,
    );
    console.log(
      `labels: ${labels.map((l) => `${l.name} ${counts.get(l.id) ?? 0}`).join(', ')}; ` +
        `${sets?.none} conversations with none, ${sets?.several} with two or more`,
    );
    return labels.map(({ id, name, perMille, oldestTenthOnly }) => ({
      ...{ id, name, perMille, oldestTenthOnly: oldestTenthOnly === true },
      count: counts.get(id) ?? 0,
    }));
  } finally {
    await database.close();
  }
}

/** One case of `explain`: its name, its filter on the conversations, and the label it filters by if any. */
export type ExplainCase = [label: string, where: string, labelId?: string];

/**
 * The plan PostgreSQL picks for the list's query under a few filters, on the first page and 2,000
 * rows in, with its time in the database (EXPLAIN ANALYZE), printed with the results. With a label,
 * the list's query walks that label's `conversation_labels` rows (features/inbox/inbox.repo.ts);
 * the plan of the filter on `conversations.labels` it replaced is printed under it ("before").
 */
export async function explain(env: NodeJS.ProcessEnv, workspaceId: string, filters: ExplainCase[]) {
  if (!env.DATABASE_URL) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const visible = "(c.channel <> 'chat' or c.handed_off_at is not null)";
  const onConversations = {
    from: `from conversations c where c.workspace_id = $1 and ${visible}`,
    key: ['c.last_message_at', 'c.id'],
  };
  const onLabelRows = (labelId: string) => ({
    from: `from conversation_labels cl join conversations c on c.id = cl.conversation_id
            where cl.workspace_id = $1 and cl.label_id = '${labelId}' and c.workspace_id = $1 and ${visible}`,
    key: ['cl.last_message_at', 'cl.conversation_id'],
  });
  const summary = planSummary;
  // As inbox.repo.ts: `nulls last` on both, the cursor a row comparison on the same two columns.
  const order = (key: string[], idNulls = ' nulls last') =>
    `order by ${key[0]} desc nulls last, ${key[1]} desc${idNulls}`;
  const after = (key: string[]) => `and (${key[0]}, ${key[1]}) < ($2::timestamptz, $3)`;
  try {
    console.log('\nquery plans (EXPLAIN ANALYZE, 26 rows):');
    for (const [label, where, labelId] of filters) {
      const q = labelId ? onLabelRows(labelId) : onConversations;
      const at = `${q.key[0]} as at, ${q.key[1]} as id`;
      const { rows: deep } = await client.query(
        `select ${at} ${q.from} ${where} ${order(q.key)} offset 2000 limit 1`,
        [workspaceId],
      );
      const pages: Array<[string, boolean, unknown[]]> = [['first page', false, [workspaceId]]];
      if (deep[0]) pages.push(['rows 2,001-', true, [workspaceId, deep[0].at, deep[0].id]]);
      else {
        // A shorter list (a rare label): its last page of 25, the one that scans furthest.
        const { rows: counted } = await client.query(`select count(*)::int as n ${q.from} ${where}`, [
          workspaceId,
        ]);
        const skip = Math.floor((Number(counted[0].n) - 1) / 25) * 25;
        const { rows: last } =
          skip > 0
            ? await client.query(
                `select ${at} ${q.from} ${where} ${order(q.key)} offset ${skip - 1} limit 1`,
                [workspaceId],
              )
            : { rows: [] };
        if (last[0])
          pages.push([`last page (rows ${skip + 1}-)`, true, [workspaceId, last[0].at, last[0].id]]);
      }
      for (const [page, paged, values] of pages) {
        const plan = async (p: { from: string; key: string[] }, extra = '', idNulls?: string) =>
          summary(
            (
              await client.query(
                `explain analyze select c.* ${p.from} ${where} ${extra} ${paged ? after(p.key) : ''} ${order(p.key, idNulls)} limit 26`,
                values,
              )
            ).rows,
          );
        console.log(`  ${label}, ${page}: ${await plan(q)}`);
        // Before: the filter on `conversations.labels` (its GIN index) over the inbox indexes.
        if (labelId)
          console.log(
            `    before, labels @> jsonb: ${await plan(onConversations, `and c.labels @> '[{"id":"${labelId}"}]'::jsonb`)}`,
          );
        // Before: `id desc` (nulls first) against the indexes' `nulls last` added a sort step.
        if (label === 'no filter') console.log(`    before, ordered "id desc": ${await plan(q, '', '')}`);
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

/**
 * The plan PostgreSQL picks for the `sort=sla` list's query (features/inbox/inbox.repo.ts
 * `listInboxBySla`: the soonest due time first, then id, those with no clock last) under a few
 * filters: the first page, 2,000 rows into the part with due times (or its last page), and 2,000
 * rows into the no-clock tail (or the list's last page), with its time in the database.
 */
export async function explainSla(env: NodeJS.ProcessEnv, workspaceId: string, filters: ExplainCase[]) {
  if (!env.DATABASE_URL) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const visible = "(c.channel <> 'chat' or c.handed_off_at is not null)";
  const due =
    "coalesce(least(c.sla_first_due_at, c.sla_next_due_at, c.sla_resolution_due_at), 'infinity'::timestamptz)";
  const fromOf = (labelId?: string) =>
    labelId
      ? `from conversation_labels cl join conversations c on c.id = cl.conversation_id
          where c.workspace_id = $1 and ${visible} and cl.workspace_id = $1 and cl.label_id = '${labelId}'`
      : `from conversations c where c.workspace_id = $1 and ${visible}`;
  try {
    console.log('\nquery plans, sort=sla (EXPLAIN ANALYZE, 26 rows):');
    for (const [label, where, labelId] of filters) {
      const from = `${fromOf(labelId)} ${where}`;
      // With a label the list orders by the label rows' copy of the time (migration 0027).
      const key = labelId ? { at: 'cl.sla_due_at', id: 'cl.conversation_id' } : { at: due, id: 'c.id' };
      const { rows: counted } = await client.query(
        `select count(*)::int as n, count(*) filter (where ${due} < 'infinity')::int as due ${from}`,
        [workspaceId],
      );
      const n = Number(counted[0].n);
      const withDue = Number(counted[0].due);
      // Pages by the row they start at (0: the first page).
      const lastOf = (end: number) => Math.floor((end - 1) / 25) * 25;
      const starts: Array<[string, number]> = [['first page', 0]];
      if (withDue > 2025) starts.push(['rows 2,001- (due times)', 2000]);
      else if (lastOf(withDue) > 0)
        starts.push([`last page with due times (rows ${lastOf(withDue) + 1}-)`, lastOf(withDue)]);
      if (n - withDue > 2025) starts.push([`no-clock tail, rows ${withDue + 2001}-`, withDue + 2000]);
      else if (lastOf(n) > withDue)
        starts.push([`no-clock tail, last page (rows ${lastOf(n) + 1}-)`, lastOf(n)]);
      for (const [page, start] of starts) {
        let values: unknown[] = [workspaceId];
        let after = '';
        if (start > 0) {
          const { rows } = await client.query(
            `select ${key.at}::text as at, ${key.id} as id ${from} order by ${key.at}, ${key.id} offset ${start - 1} limit 1`,
            [workspaceId],
          );
          values = [workspaceId, rows[0].at, rows[0].id];
          after = `and (${key.at}, ${key.id}) > ($2::timestamptz, $3)`;
        }
        const { rows } = await client.query(
          `explain analyze select c.* ${from} ${after} order by ${key.at}, ${key.id} limit 26`,
          values,
        );
        console.log(`  ${label}, ${page}: ${planSummary(rows)}`);
        // A slow one in full, to read why.
        if (Number(/Execution Time: ([\d.]+) ms/.exec(rows.map((r) => r['QUERY PLAN']).join(' '))?.[1]) > 5)
          for (const r of rows) console.log(`      ${r['QUERY PLAN']}`);
      }
    }
  } finally {
    await client.end();
  }
}

/** One line of an EXPLAIN ANALYZE: the index walked or bitmaps, a sort, rows dropped, the time. */
function planSummary(rows: Array<Record<string, string>>) {
  const plan = rows.map((r) => r['QUERY PLAN']).join(' / ');
  // An index walked in order, or bitmaps of one or more indexes (a label's GIN index) then a sort.
  const walked = /Index (?:Only )?Scan(?: Backward)? using (\w+)/.exec(plan)?.[1];
  const bitmaps = [...plan.matchAll(/Bitmap Index Scan on (\w+)/g)].map((m) => m[1]);
  const index = walked ?? (bitmaps.length ? `bitmap of ${bitmaps.join(' and ')}` : 'no index');
  const sort = /Sort/.test(plan) ? ', then a sort' : '';
  // Rows the scan read and dropped (a filter the index does not hold, as a label on an inbox index).
  const removed = [...plan.matchAll(/Rows Removed by (?:Filter|Index Recheck): (\d+)/g)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
  const dropped = removed ? `, ${removed} rows read and dropped` : '';
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
  return `${index}${sort}${dropped}; ${time} ms in the database`;
}
