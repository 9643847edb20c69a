/**
 * Retrieval quality per language (docs/performance.md "Answer quality in every language"): the
 * multilingual development set (bench/languages/faq-dev.json: the same 16 FAQs and 48 questions in
 * en, es, fr, de, pt, it, nl, pl, tr, ja, zh-Hans and ar) loaded through the API as one Q&A source
 * per FAQ, and every question asked through `GET /api/assistants/{id}/search`. Per language:
 * - `own`: an assistant that knows that language's FAQs only;
 * - `mixed`: one assistant that knows every language's FAQs (12 x 16 pairs), where the right answer
 *   is the same FAQ in the question's language;
 * - `fulltext`: the `own` assistants again with the words ranked by PostgreSQL full text (the path
 *   of namespaces too large to hold in memory, retrieval.ts), forced here by an in-process index
 *   that holds none.
 * P@1, MRR@10, recall@5, and the search latency p50/p95 over every question.
 *
 *   npx tsx bench/quality-languages.ts                 # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/quality-languages.ts
 *   LANGUAGES=en,pl npx tsx bench/quality-languages.ts  # some languages only (the mixed base too)
 *   MISSES=1 LANGUAGES=nl npx tsx bench/quality-languages.ts  # also each `own` question missed at 1
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
import { createLexicalIndex } from '../apps/server/src/features/knowledge/retrieval/lexical-index.ts';
import { scratchDatabase } from './support.ts';

type Faq = { id: string; question: string; answer: string };
type Language = { faqs: Faq[]; queries: Array<{ question: string; faqIds: string[] }> };
type DevSet = { name: string; faqIds: string[]; languages: Record<string, Language> };
type Scores = { p1: number; mrr10: number; r5: number };

const defaultSet = fileURLToPath(new URL('./languages/faq-dev.json', import.meta.url));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

function score(rankings: Array<{ got: string[]; right: string[] }>): Scores {
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

export async function runLanguagesBench() {
  const set = JSON.parse(readFileSync(process.env.FAQ_SET ?? defaultSet, 'utf8')) as DevSet;
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'languages')
    : null;
  const database = scratch
    ? await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 })
    : await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-languages-')),
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://parley.bench',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_URL: '',
  });
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
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
      email: 'languages@example.com',
      password: 'correct horse battery',
      name: 'Languages',
    });
    const token = signup.cookies.find((c) => c.name === 'parley.session-token')!.value;
    const cookie = `parley.session-token=${token}`;
    const userId = signup.json().data.user.id as string;
    await ctx.db.insert(workspaces).values({
      ...{ id: 'ws_languages', name: 'Languages', slug: 'languages', ownerId: userId },
      ...{ plan: 'enterprise', billingStatus: 'active' },
    });
    await ctx.db.insert(memberships).values({ workspaceId: 'ws_languages', userId, role: 'owner' });
    /** An assistant with one Q&A source per FAQ; `faqOf`: source id -> "language:faq id". */
    const assistant = async (name: string, faqs: Array<Faq & { language: string }>) => {
      const res = await call('POST', '/api/assistants', cookie, { workspaceId: 'ws_languages', name });
      const id = res.json().data.id as string;
      const faqOf = new Map<string, string>();
      for (const f of faqs) {
        const src = await call('POST', `/api/assistants/${id}/sources`, cookie, {
          type: 'qa',
          name: `FAQ ${f.id}`,
          pairs: [{ question: f.question, answer: f.answer }],
        });
        faqOf.set(src.json().data.id, `${f.language}:${f.id}`);
      }
      return { id, faqOf };
    };
    const only = process.env.LANGUAGES?.split(',');
    const languages = Object.keys(set.languages).filter((l) => !only || only.includes(l));
    const withLanguage = (l: string) => set.languages[l]!.faqs.map((f) => ({ ...f, language: l }));
    const own = new Map<string, Awaited<ReturnType<typeof assistant>>>();
    for (const l of languages) own.set(l, await assistant(`FAQ ${l}`, withLanguage(l)));
    const mixed = await assistant('Every language', languages.flatMap(withLanguage));
    while ((await ingestionStep(ctx, 4)) > 0);

    const latency: number[] = [];
    const ask = async (a: { id: string; faqOf: Map<string, string> }, q: string) => {
      const s = performance.now();
      const res = await call('GET', `/api/assistants/${a.id}/search?q=${encodeURIComponent(q)}&k=10`, cookie);
      latency.push(performance.now() - s);
      const hits = res.json().data as Array<{ sourceId: string }>;
      return hits.map((h) => a.faqOf.get(h.sourceId) ?? '?');
    };
    const misses: string[] = [];
    const run = async (
      pick: (l: string) => { id: string; faqOf: Map<string, string> },
      listMisses = false,
    ) => {
      const out: Record<string, Scores> = {};
      for (const l of languages) {
        const rankings = [];
        for (const q of set.languages[l]!.queries) {
          const got = await ask(pick(l), q.question);
          const right = q.faqIds.map((id) => `${l}:${id}`);
          rankings.push({ got, right });
          if (listMisses && !right.includes(got[0] ?? '')) {
            const at = [...new Set(got)].findIndex((id) => right.includes(id));
            misses.push(
              `  ${l} "${q.question}": ${right.join(' ')} at ${at < 0 ? '-' : at + 1}, first ${got[0]}`,
            );
          }
        }
        out[l] = score(rankings);
      }
      return out;
    };
    await ask(own.get(languages[0]!)!, 'warm up');
    latency.length = 0;
    const results: Record<string, Record<string, Scores>> = {};
    results.own = await run((l) => own.get(l)!, process.env.MISSES === '1');
    const p50 = pct(latency, 50);
    const p95 = pct(latency, 95);
    results.mixed = await run(() => mixed);
    // the PostgreSQL full-text path: an in-process index that holds no namespace
    const inProcess = ctx.vectors.lexical;
    ctx.vectors.lexical = createLexicalIndex(ctx, 0);
    results.fulltext = await run((l) => own.get(l)!);
    ctx.vectors.lexical = inProcess;

    const fmt = (s: Scores) => `P@1 ${s.p1.toFixed(3)}  MRR@10 ${s.mrr10.toFixed(3)}  R@5 ${s.r5.toFixed(3)}`;
    console.log(
      `quality per language: ${set.name}, ${set.faqIds.length} FAQs x ${languages.length} languages, ${database.kind}, embedder ${ctx.embedder.id}`,
    );
    const en = results.own!.en?.p1 ?? 0;
    for (const l of languages) {
      const o = results.own![l]!;
      const gap = en - o.p1;
      console.log(
        `  ${l.padEnd(7)} own ${fmt(o)}  ${gap > 0.1 ? `(${gap.toFixed(3)} below en)` : ''}\n          mixed P@1 ${results.mixed![l]!.p1.toFixed(3)}   full text P@1 ${results.fulltext![l]!.p1.toFixed(3)}`,
      );
    }
    if (misses.length)
      console.log(`own questions missed at 1 (right FAQ, its place, the first):\n${misses.join('\n')}`);
    console.log(
      `  search p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (own assistants, in-process index)`,
    );
    return {
      set: set.name,
      database: database.kind,
      embedder: ctx.embedder.id,
      ...results,
      searchP50: p50,
      searchP95: p95,
    };
  } finally {
    await app.close();
    await ctx.jobs.stop(1000).catch(() => undefined);
    await ctx.limits.close();
    await ctx.fanout.close();
    await database.close();
    await scratch?.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runLanguagesBench();
  if (process.env.JSON === '1') console.log(JSON.stringify(results, null, 2));
}
