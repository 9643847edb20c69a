/**
 * What the two answer-quality benchmarks share (bench/quality.ts, bench/quality-languages.ts): the
 * app in process on a database of its own, an owner with an Enterprise workspace, assistants
 * made of one Q&A source per FAQ through the API, and the ranking scores.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrateDatabase } from '../apps/server/src/db/migrate.ts';
import { memberships, workspaces } from '../apps/server/src/db/schema/index.ts';
import { ingestionStep } from '../apps/server/src/features/knowledge/ingestion/ingest.jobs.ts';
import { scratchDatabase } from './support.ts';

export type Faq = { id: string; question: string; answer: string };
export type Scores = { p1: number; mrr10: number; r5: number };
/** An assistant made by `QualityApp.assistant`; `faqOf`: source id -> the FAQ's key. */
export type FaqAssistant = { id: string; faqOf: Map<string, string> };

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** P@1, MRR@10 and recall@5 of rankings of FAQ keys (a FAQ counted once, where it first ranks). */
export function score(rankings: Array<{ got: string[]; right: string[] }>): Scores {
  let p1 = 0;
  let mrr = 0;
  let r5 = 0;
  for (const { got, right } of rankings) {
    const at = [...new Set(got)].slice(0, 10).findIndex((id) => right.includes(id));
    if (at === 0) p1++;
    if (at >= 0) mrr += 1 / (at + 1);
    if (at >= 0 && at < 5) r5++;
  }
  const n = Math.max(1, rankings.length);
  return { p1: p1 / n, mrr10: mrr / n, r5: r5 / n };
}

/**
 * The app on a scratch PostgreSQL database (DATABASE_URL) or a PGlite of its own, with an owner
 * signed up through the API and an Enterprise workspace `ws_<name>` (a fixture, as in the tests).
 */
export async function openQualityApp(name: string) {
  const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, name) : null;
  const database = scratch
    ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 })
    : await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), `parley-${name}-`)),
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://parley.bench',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_URL: '',
  });
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  const close = async () => {
    await app.close();
    await ctx.jobs.stop(1000).catch(() => undefined);
    await ctx.limits.close();
    await ctx.fanout.close();
    await database.close();
    await scratch?.drop();
  };
  const call = async (method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { origin: 'http://parley.bench', ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload: payload as object } : {}),
    });
    if (res.statusCode >= 300)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res;
  };
  try {
    const signup = await call('POST', '/api/auth/signup', undefined, {
      email: `${name}@example.com`,
      password: 'correct horse battery',
      name,
    });
    const token = signup.cookies.find((c) => c.name === 'parley.session-token')!.value;
    const cookie = `parley.session-token=${token}`;
    const userId = signup.json().data.user.id as string;
    const workspaceId = `ws_${name}`;
    await ctx.db.insert(workspaces).values({
      ...{ id: workspaceId, name, slug: name, ownerId: userId },
      ...{ plan: 'enterprise', billingStatus: 'active' },
    });
    await ctx.db.insert(memberships).values({ workspaceId, userId, role: 'owner' });
    /** An assistant with one Q&A source per FAQ, each known by `keyOf` (not yet ingested). */
    const assistant = async <F extends Faq>(
      assistantName: string,
      faqs: F[],
      keyOf: (f: F) => string = (f) => f.id,
    ): Promise<FaqAssistant> => {
      const res = await call('POST', '/api/assistants', cookie, { workspaceId, name: assistantName });
      const id = res.json().data.id as string;
      const faqOf = new Map<string, string>();
      for (const f of faqs) {
        const src = await call('POST', `/api/assistants/${id}/sources`, cookie, {
          type: 'qa',
          name: `FAQ ${f.id}`,
          pairs: [{ question: f.question, answer: f.answer }],
        });
        faqOf.set(src.json().data.id, keyOf(f));
      }
      return { id, faqOf };
    };
    /** Runs the ingestion job until every source is in. */
    const ingest = async () => {
      while ((await ingestionStep(ctx, 4)) > 0);
    };
    return { ctx, database, call, cookie, assistant, ingest, close };
  } catch (err) {
    await close();
    throw err;
  }
}
