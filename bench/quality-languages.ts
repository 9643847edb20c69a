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
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLexicalIndex } from '../apps/server/src/features/knowledge/retrieval/lexical-cache.ts';
import { type Faq, type FaqAssistant, openQualityApp, pct, type Scores, score } from './quality-app.ts';

type Language = { faqs: Faq[]; queries: Array<{ question: string; faqIds: string[] }> };
type DevSet = { name: string; faqIds: string[]; languages: Record<string, Language> };

const defaultSet = fileURLToPath(new URL('./languages/faq-dev.json', import.meta.url));

export async function runLanguagesBench() {
  const set = JSON.parse(readFileSync(process.env.FAQ_SET ?? defaultSet, 'utf8')) as DevSet;
  const {
    ctx,
    database,
    call,
    cookie,
    assistant: faqAssistant,
    ingest,
    close,
  } = await openQualityApp('languages');
  try {
    /** An assistant with one Q&A source per FAQ; `faqOf`: source id -> "language:faq id". */
    const assistant = (name: string, faqs: Array<Faq & { language: string }>) =>
      faqAssistant(name, faqs, (f) => `${f.language}:${f.id}`);
    const only = process.env.LANGUAGES?.split(',');
    const languages = Object.keys(set.languages).filter((l) => !only || only.includes(l));
    const withLanguage = (l: string) => set.languages[l]!.faqs.map((f) => ({ ...f, language: l }));
    const own = new Map<string, FaqAssistant>();
    for (const l of languages) own.set(l, await assistant(`FAQ ${l}`, withLanguage(l)));
    const mixed = await assistant('Every language', languages.flatMap(withLanguage));
    await ingest();

    const latency: number[] = [];
    const ask = async (a: FaqAssistant, q: string) => {
      const s = performance.now();
      const res = await call('GET', `/api/assistants/${a.id}/search?q=${encodeURIComponent(q)}&k=10`, cookie);
      latency.push(performance.now() - s);
      const hits = res.json().data as Array<{ sourceId: string }>;
      return hits.map((h) => a.faqOf.get(h.sourceId) ?? '?');
    };
    const misses: string[] = [];
    const run = async (pick: (l: string) => FaqAssistant, listMisses = false) => {
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
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runLanguagesBench();
  if (process.env.JSON === '1') console.log(JSON.stringify(results, null, 2));
}
