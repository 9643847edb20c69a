import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { namedStatement } from '../../db/prepared.ts';
import { type WebhookFormat, webhookDeliveries, webhookFailures, webhooks } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Queries of the delivery queue (the webhook_deliveries table, see db/schema/webhooks.ts). They
 * span workspaces on purpose: workers serve every tenant; each row carries its workspace.
 */

/** An undispatched event with one active webhook of its workspace (null: it has none). */
export type PendingPair = {
  eventId: string;
  workspaceId: string;
  type: string;
  webhook: { id: string; format: WebhookFormat; events: string[] } | null;
};

type PendingRow = {
  id: string;
  workspace_id: string;
  type: string;
  webhook_id: string | null;
  format: WebhookFormat | null;
  events: string[] | string | null;
};

// Every step of the relay runs it (and commitDispatch): named statements (db/prepared.ts).
const pendingStatement = namedStatement<PendingRow>(
  'parley_relay_pending',
  sql`select e.id, e.workspace_id, e.type, w.id as webhook_id, w.format, w.events
      from (select id, workspace_id, type, created_at from events
            where dispatched_at is null order by created_at limit ${sql.placeholder('limit')}::int) e
      left join webhooks w on w.workspace_id = e.workspace_id and w.active
      order by e.created_at, e.id`,
);

/**
 * The outbox relay's read (no locks, one statement): the oldest `limit` undispatched events,
 * each paired with every active webhook of its workspace. The events table is the outbox
 * (features/events); this relay is its only reader.
 */
export async function pendingEventsWithWebhooks(db: Executor, limit: number): Promise<PendingPair[]> {
  const rows = await pendingStatement(db, { limit });
  return rows.map((r) => ({
    eventId: r.id,
    workspaceId: r.workspace_id,
    type: r.type,
    webhook:
      r.webhook_id && r.format
        ? { id: r.webhook_id, format: r.format, events: parseTextArray(r.events) }
        : null,
  }));
}

/** node-postgres returns text[] as an array; a driver may return the '{a,b}' literal. */
function parseTextArray(v: string[] | string | null): string[] {
  if (Array.isArray(v)) return v;
  if (!v || v === '{}') return [];
  return v
    .slice(1, -1)
    .split(',')
    .map((s) => s.replace(/^"(.*)"$/, '$1'));
}

/**
 * A PostgreSQL array literal passed as ONE parameter: batches cost a handful of parameters
 * instead of one query fragment per row (the query builder dominated the profile otherwise).
 */
const pgArray = (values: (string | number)[]) =>
  `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

export type NewDelivery = {
  id: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  event: string;
  maxAttempts: number;
  at: Date;
};

const dispatchStatement = namedStatement<{ events: number; deliveries: number }>(
  'parley_relay_dispatch',
  sql`with locked as (
        select id from events
        where id = any(${sql.placeholder('eventIds')}::text[]) and dispatched_at is null
        for update skip locked
      ), marked as (
        update events set dispatched_at = ${sql.placeholder('at')}::timestamptz
        where id in (select id from locked) returning id
      ), added as (
        insert into webhook_deliveries
          (id, workspace_id, webhook_id, event_id, event, status, attempt, max_attempts, next_attempt_at, created_at, updated_at)
        select v.id, v.ws, v.wh, v.ev, v.name, 'pending', 0, v.max, v.at, v.at, v.at
        from unnest(${sql.placeholder('ids')}::text[], ${sql.placeholder('workspaceIds')}::text[],
                    ${sql.placeholder('webhookIds')}::text[], ${sql.placeholder('deliveryEventIds')}::text[],
                    ${sql.placeholder('names')}::text[], ${sql.placeholder('maxAttempts')}::int[],
                    ${sql.placeholder('ats')}::timestamptz[])
          as v(id, ws, wh, ev, name, max, at)
        where v.ev in (select id from marked)
        on conflict (event_id, webhook_id) do nothing
        returning 1
      )
      select (select count(*) from marked)::int as events, (select count(*) from added)::int as deliveries`,
);

/**
 * The outbox relay's write, all or nothing in one statement: the events of `eventIds` that are
 * still undispatched and not locked by another relay are marked dispatched, and exactly their
 * `deliveries` are inserted (idempotent: (event_id, webhook_id) is unique). Events another
 * process took meanwhile are skipped, with their deliveries. Returns what was done. The arrays
 * go in as PostgreSQL array literals, one parameter each (pgArray).
 */
export async function commitDispatch(db: Executor, eventIds: string[], deliveries: NewDelivery[], at: Date) {
  const col = <K extends keyof NewDelivery>(k: K) => pgArray(deliveries.map((r) => r[k] as string | number));
  const [row] = await dispatchStatement(db, {
    eventIds: pgArray(eventIds),
    at: at.toISOString(),
    ids: col('id'),
    workspaceIds: col('workspaceId'),
    webhookIds: col('webhookId'),
    deliveryEventIds: col('eventId'),
    names: col('event'),
    maxAttempts: col('maxAttempts'),
    ats: pgArray(deliveries.map((r) => r.at.toISOString())),
  });
  return { events: Number(row?.events ?? 0), deliveries: Number(row?.deliveries ?? 0) };
}

export type ClaimedDelivery = {
  id: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  event: string;
  attempt: number;
  maxAttempts: number;
  lockedUntil: Date;
  format: WebhookFormat;
  url: string;
  secretEnc: string;
  active: boolean;
  eventCreatedAt: Date;
  data: Record<string, unknown>;
  /** The webhook has a failure streak that a success must reset. */
  hasFailures: boolean;
};

/**
 * Claims up to `limit` due deliveries with a lease until `leaseUntil`. A claim whose lease ran
 * out (its worker died) is due again: that is what makes delivery at-least-once.
 */
export async function claimDue(
  db: Executor,
  limit: number,
  at: Date,
  leaseUntil: Date,
): Promise<ClaimedDelivery[]> {
  const atIso = at.toISOString();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with due as (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${atIso}::timestamptz
            and (locked_until is null or locked_until < ${atIso}::timestamptz)
          order by next_attempt_at limit ${limit} for update skip locked)
        update webhook_deliveries d set locked_until = ${leaseUntil.toISOString()}::timestamptz
        from due, webhooks w, events e
        where d.id = due.id and w.id = d.webhook_id and e.id = d.event_id
        returning d.id, d.workspace_id, d.webhook_id, d.event_id, d.event, d.attempt, d.max_attempts,
          d.locked_until, w.format, w.url, w.secret_enc, w.active, e.created_at as event_created_at, e.data,
          exists (select 1 from webhook_failures f where f.webhook_id = w.id) as has_failures`,
  );
  return rows.map((r) => ({
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    webhookId: r.webhook_id as string,
    eventId: r.event_id as string,
    event: r.event as string,
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    lockedUntil: new Date(r.locked_until as string),
    format: r.format as WebhookFormat,
    url: r.url as string,
    secretEnc: r.secret_enc as string,
    active: r.active as boolean,
    eventCreatedAt: new Date(r.event_created_at as string),
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    hasFailures: r.has_failures === true,
  }));
}

/**
 * Writes an attempt's outcome, fenced by the lease: if the lease expired and another worker
 * took the delivery over, this late result is dropped (returns false).
 */
export async function finishAttempt(
  db: Executor,
  claim: Pick<ClaimedDelivery, 'id' | 'lockedUntil'>,
  patch: Partial<typeof webhookDeliveries.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ ...patch, lockedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        sql`${webhookDeliveries.lockedUntil} = ${claim.lockedUntil.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Records one failed attempt and returns the webhook's failures since `since`. */
export async function addFailure(db: Executor, webhookId: string, at: Date, since: Date): Promise<number> {
  await db.insert(webhookFailures).values({ id: newId('whf'), webhookId, at });
  // Failures older than the window drop out of the streak (docs/webhooks.md "Auto-disable").
  await db
    .delete(webhookFailures)
    .where(and(eq(webhookFailures.webhookId, webhookId), lt(webhookFailures.at, since)));
  const [row] = await db
    .select({ n: count() })
    .from(webhookFailures)
    .where(and(eq(webhookFailures.webhookId, webhookId), gt(webhookFailures.at, since)));
  return row?.n ?? 0;
}

/** Turns the webhook off once; returns the row only to the caller that did it. */
export async function disableWebhook(db: Executor, webhookId: string, at: Date) {
  const [row] = await db
    .update(webhooks)
    .set({ active: false, disabledAt: at, updatedAt: at })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.active, true)))
    .returning();
  return row;
}

export async function resetFailureStreak(db: Executor, webhookId: string) {
  await db.delete(webhookFailures).where(eq(webhookFailures.webhookId, webhookId));
}

export type SuccessRecord = {
  id: string;
  lockedUntil: Date;
  attempt: number;
  statusCode: number;
  durationMs: number;
  at: Date;
};

/**
 * Many successful attempts in one statement (the common case, so one round trip per batch
 * instead of per delivery), fenced by each lease like finishAttempt. Returns the ids written.
 */
export async function finishSuccesses(db: Executor, rows: SuccessRecord[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const arr = (f: (r: SuccessRecord) => string | number) => pgArray(rows.map(f));
  const done = await queryRows<{ id: string }>(
    db,
    sql`update webhook_deliveries d set status = 'success', attempt = v.attempt, status_code = v.code,
          duration_ms = v.dur, last_error = null, next_attempt_at = null, locked_until = null, updated_at = v.at
        from unnest(${arr((r) => r.id)}::text[], ${arr((r) => r.lockedUntil.toISOString())}::timestamptz[],
                    ${arr((r) => r.attempt)}::int[], ${arr((r) => r.statusCode)}::int[], ${arr((r) => r.durationMs)}::int[],
                    ${arr((r) => r.at.toISOString())}::timestamptz[]) as v(id, locked, attempt, code, dur, at)
        where d.id = v.id and d.locked_until = v.locked
        returning d.id`,
  );
  return new Set(done.map((r) => r.id));
}
