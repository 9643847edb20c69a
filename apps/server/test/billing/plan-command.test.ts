import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { events, memberships, users, workspaces } from '../../src/db/schema/index.ts';
import { addDays, now } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { freshDatabase, onPostgres, type TestDatabase } from '../support/database.ts';

/**
 * The operator command, run for real: `npm run plan -- <workspaceId> <plan>` from the repository
 * root against a PGlite DATA_DIR, or against this file's PostgreSQL database when DATABASE_URL is
 * set (docs/billing.md "Changing a plan by hand").
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

type Target = { env: NodeJS.ProcessEnv; open(): Promise<Database>; close(): Promise<void> };

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS', 'VITEST']) delete env[key];
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

async function plan(target: Target, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'plan', '--', ...args], {
      cwd: ROOT,
      env: target.env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let pgDb: TestDatabase | undefined;
async function target(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-plan-'));
  if (onPostgres()) {
    pgDb = await freshDatabase();
    const url = pgDb.url as string;
    return {
      env: baseEnv({ DATA_DIR: dataDir, DATABASE_URL: url }),
      open: async () => (pgDb as TestDatabase).database,
      close: async () => undefined,
    };
  }
  let open: Database | undefined;
  return {
    env: baseEnv({ DATA_DIR: dataDir }),
    // PGlite allows one process per data directory: the test opens it only between commands.
    open: async () => {
      open = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
      return open;
    },
    close: async () => {
      await open?.close();
      open = undefined;
    },
  };
}

afterAll(async () => {
  await pgDb?.drop();
});

describe('npm run plan -- <workspaceId> <plan>', () => {
  it('changes the plan through the service: row, event, trial ended; bad input exits non-zero', async () => {
    const tg = await target();
    // Wrong arguments: usage, exit 2, nothing opened (so it runs beside the next command).
    // An unknown workspace: exit 1 (this run also migrates a fresh DATA_DIR).
    const [usage, missing] = await Promise.all([plan(tg, 'ws_x', 'gold'), plan(tg, 'ws_missing', 'pro')]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run plan');
    expect(missing.code, missing.stderr).toBe(1);
    expect(missing.stderr).toContain('Workspace not found');

    const ws = newId('ws');
    const userId = newId('usr');
    let db = await tg.open();
    await db.db.insert(users).values({ id: userId, email: `${userId}@example.test`, name: 'Op' });
    await db.db.insert(workspaces).values({
      id: ws,
      name: 'Acme',
      slug: ws.replace('_', '-'),
      plan: 'pro',
      ownerId: userId,
      trialEndsAt: addDays(now(), 14),
      billingStatus: 'trialing',
    });
    await db.db.insert(memberships).values({ workspaceId: ws, userId, role: 'owner' });
    await tg.close();

    const up = await plan(tg, ws, 'enterprise');
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain(`${ws}: pro → enterprise`);
    const down = await plan(tg, ws, 'free');
    expect(down.code, down.stderr).toBe(0);

    db = await tg.open();
    const [row] = await db.db.select().from(workspaces).where(eq(workspaces.id, ws));
    expect(row).toMatchObject({ plan: 'free', billingStatus: 'active', trialEndsAt: null });
    const changes = await db.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, ws), eq(events.type, 'workspace.plan_changed')))
      .orderBy(events.createdAt);
    expect(changes.map((e) => [e.data.from, e.data.to])).toEqual([
      ['pro', 'enterprise'],
      ['enterprise', 'free'],
    ]);
    expect(changes[0]?.data).toMatchObject({ workspaceId: ws, effectiveAt: expect.any(String) });
    await tg.close();

    // The same plan again: no event, exit 0.
    const same = await plan(tg, ws, 'free');
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('already on free');
  }, 180_000);
});
