/**
 * Test-run benchmark (docs/performance.md "Test runs"; docs/steering.md "Test runs"): an assistant
 * answering from the development FAQ set (one Q&A source per FAQ, through the API) with 200 tests
 * made of the set's own questions (each expecting its FAQ to be cited), one manual run played by
 * the `test-runs` job with the offline responder. Target: the run done within 60 s. Its floor,
 * measured in the same run: the same 200 questions through `GET /api/assistants/{id}/search`,
 * the retrieval every test's turn does first.
 *
 *   npx tsx bench/test-runs.ts                                          # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/test-runs.ts
 *
 * TEST_RUN_BENCH_TESTS (200): how many tests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrateDatabase } from '../apps/server/src/db/migrate.ts';
import { memberships, workspaces } from '../apps/server/src/db/schema/index.ts';
import { ingestionStep } from '../apps/server/src/features/knowledge/ingestion/ingest.jobs.ts';
import { startJobs } from '../apps/server/src/jobs/catalog.ts';
import { scratchDatabase } from './support.ts';

type FaqSet = {
  faqs: Array<{ id: string; question: string; answer: string }>;
  queries: Array<{ question: string; faqIds: string[] }>;
};
const setPath = fileURLToPath(new URL('../../shared/data/faq-retrieval/covid-faq.json', import.meta.url));
const TESTS = Number(process.env.TEST_RUN_BENCH_TESTS ?? 200);

const set = JSON.parse(readFileSync(process.env.FAQ_SET ?? setPath, 'utf8')) as FaqSet;
const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'testruns') : null;
const database = scratch
  ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 })
  : await openDatabase({ kind: 'pglite' });
await migrateDatabase(database);
const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-testruns-')),
  LOG_LEVEL: 'silent',
  PUBLIC_BASE_URL: 'http://parley.bench',
  API_RATE_LIMIT_PER_MINUTE: '1000000',
  REDIS_URL: '',
});
const ctx = createContext(config, database);
const app = await buildApp(ctx, { logger: false });
await app.ready();
let cookie = '';
const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const res = await app.inject({
    method,
    url,
    headers: { origin: 'http://parley.bench', ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload: payload as object } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
};

try {
  const signup = await call('POST', '/api/auth/signup', {
    email: 'testruns@example.com',
    password: 'correct horse battery',
    name: 'Bench',
  });
  cookie = `parley.session-token=${signup.cookies.find((c) => c.name === 'parley.session-token')!.value}`;
  const userId = signup.json().data.user.id as string;
  await ctx.db.insert(workspaces).values({
    ...{ id: 'ws_testruns', name: 'Bench', slug: 'testruns', ownerId: userId },
    ...{ plan: 'enterprise', billingStatus: 'active' },
  });
  await ctx.db.insert(memberships).values({ workspaceId: 'ws_testruns', userId, role: 'owner' });
  const assistantId = (
    await call('POST', '/api/assistants', { workspaceId: 'ws_testruns', name: 'FAQ' })
  ).json().data.id as string;
  const sourceOf = new Map<string, string>();
  for (const f of set.faqs) {
    const src = await call('POST', `/api/assistants/${assistantId}/sources`, {
      type: 'qa',
      name: `FAQ ${f.id}`,
      pairs: [{ question: f.question, answer: f.answer }],
    });
    sourceOf.set(f.id, src.json().data.id);
  }
  while ((await ingestionStep(ctx, 4)) > 0);
  const questions = set.queries.slice(0, TESTS);
  for (const [i, q] of questions.entries()) {
    await call('POST', `/api/assistants/${assistantId}/tests`, {
      name: `q${i}`,
      turns: [{ content: q.question.slice(0, 8000) }],
      expect: { cites: [sourceOf.get(q.faqIds[0] ?? '') ?? 'src_none'] },
    });
  }

  // Floor: the retrieval of every test's question, one after the other.
  const f0 = performance.now();
  for (const q of questions)
    await call(
      'GET',
      `/api/assistants/${assistantId}/search?q=${encodeURIComponent(q.question.slice(0, 500))}&k=5`,
    );
  const floorMs = performance.now() - f0;

  const jobs = startJobs(ctx, { only: ['test-runs'], everyMs: { 'test-runs': 50 } });
  const t0 = performance.now();
  const runId = (await call('POST', `/api/assistants/${assistantId}/test-runs`)).json().data.id as string;
  let run: { status: string; passed: number; failed: number } = { status: 'running', passed: 0, failed: 0 };
  while (run.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    run = (await call('GET', `/api/assistants/${assistantId}/test-runs/${runId}`)).json().data;
  }
  const runMs = performance.now() - t0;
  await jobs.stop(1000);
  const db = scratch ? 'PostgreSQL' : 'PGlite';
  console.log(
    `test runs (${db}): ${questions.length} tests on the offline responder, run ${run.status} in ${(runMs / 1000).toFixed(1)} s ` +
      `(target 60 s: ${runMs <= 60_000 ? 'met' : 'NOT met'}); ${run.passed} passed, ${run.failed} failed; ` +
      `floor (the same questions' retrieval) ${(floorMs / 1000).toFixed(1)} s, ratio ${(runMs / floorMs).toFixed(2)}`,
  );
} finally {
  await ctx.jobs.stop(1000);
  await app.close();
  await database.close();
  await scratch?.drop();
}
