/**
 * Answer-quality benchmark (docs/performance.md "Answer quality"): loads a FAQ set through the API
 * (one Q&A source per FAQ on one assistant, as a user would), asks every question through
 * `GET /api/assistants/{id}/search` and scores the sources of the results: P@1, MRR@10, recall@5,
 * beside a BM25 baseline computed here over the same FAQs (lower-cased `[a-z0-9]+` tokens, Porter
 * stemmer, k1 1.2, b 0.75, question + answer). Also search latency p50/p95 (in-process requests,
 * so it includes routing, auth and serialisation), and the offline responder: how often its
 * answer cites the right FAQ, and how often it answers a question it cannot know (the FAQs are
 * split in two halves on a second assistant: it knows the first half, the second half's questions
 * are out of scope; and every FAQ known, asked the questions of another set:
 * bench/quality-out-of-scope.json, OUT_OF_SCOPE=path). Then a new user's first bases
 * (bench/quality-small-bases.json: one sentence, one paragraph, three Q&A pairs): how many of their
 * questions get the right answer, and how many off-topic questions they answer.
 *
 *   npx tsx bench/quality.ts                                          # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/quality.ts  # scratch database
 *   FAQ_SET=path/to/set.json npx tsx bench/quality.ts                 # any set of the same shape
 *
 * FAQ_SET defaults to ../shared/data/faq-retrieval/covid-faq.json; a set is
 * `{name, faqs: [{id, question, answer}], queries: [{question, faqIds}]}`.
 * QUALITY_RESPONDER=0 skips the responder part.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';
import { replyConfidence } from '../apps/server/src/features/chat/confidence.ts';
import { answerFromPassages, NOT_FOUND } from '../apps/server/src/providers/llm/offline-answers.ts';
import { type Faq, type FaqAssistant, openQualityApp, pct, type Scores, score } from './quality-app.ts';

type Hit = {
  chunkId: string;
  sourceId: string;
  title: string;
  heading: string;
  content: string;
  relevance: number;
  lexicalRank: number | null;
  vectorRank: number | null;
};
type FaqSet = { name: string; faqs: Faq[]; queries: Array<{ question: string; faqIds: string[] }> };

const defaultOutOfScope = fileURLToPath(new URL('./quality-out-of-scope.json', import.meta.url));
const defaultSmall = fileURLToPath(new URL('./quality-small-bases.json', import.meta.url));
type SmallBases = {
  bases: Array<{ name: string; source: object; questions: Array<{ question: string; expect: string }> }>;
  offTopic: string[];
};
const defaultSet = fileURLToPath(new URL('../../shared/data/faq-retrieval/covid-faq.json', import.meta.url));

/** The baseline: BM25 over question + answer, standard tokenizer and Porter stemmer. */
export function bm25(faqs: Faq[], k1 = 1.2, b = 0.75) {
  const tok = (s: string) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).map((w) => stemmer(w));
  const docs = faqs.map((f) => {
    const tf = new Map<string, number>();
    const words = tok(`${f.question} ${f.answer}`);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { id: f.id, tf, len: words.length };
  });
  const avg = docs.reduce((a, d) => a + d.len, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return (query: string): string[] => {
    const terms = [...new Set(tok(query))];
    const scored = docs.map((d) => {
      let s = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const dft = df.get(t) ?? 0;
        const idf = Math.log(1 + (n - dft + 0.5) / (dft + 0.5));
        s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avg));
      }
      return { id: d.id, s };
    });
    return scored
      .filter((x) => x.s > 0)
      .sort((a, c) => c.s - a.s || (a.id < c.id ? -1 : 1))
      .map((x) => x.id);
  };
}

export async function runQualityBench() {
  const setPath = process.env.FAQ_SET ?? defaultSet;
  if (!existsSync(setPath)) throw new Error(`FAQ set not found: ${setPath} (set FAQ_SET)`);
  const set = JSON.parse(readFileSync(setPath, 'utf8')) as FaqSet;
  const { ctx, database, call, cookie, assistant, ingest, close } = await openQualityApp('quality');
  try {
    const t0 = performance.now();
    const all = await assistant('All FAQs', set.faqs);
    await ingest();
    const ingestMs = performance.now() - t0;
    const search = async (a: FaqAssistant, q: string, k = 10) => {
      const res = await call(
        'GET',
        `/api/assistants/${a.id}/search?q=${encodeURIComponent(q)}&k=${k}`,
        cookie,
      );
      return (res.json().data as Hit[]).map((h) => ({
        ...h,
        faq: a.faqOf.get(h.sourceId) ?? '?',
      }));
    };

    await search(all, set.queries[0]?.question ?? 'warm up');
    const latency: number[] = [];
    const ours: Array<{ got: string[]; right: string[] }> = [];
    const lexicalOnly: Array<{ got: string[]; right: string[] }> = [];
    const vectorOnly: Array<{ got: string[]; right: string[] }> = [];
    for (const q of set.queries) {
      const s = performance.now();
      const hits = await search(all, q.question);
      latency.push(performance.now() - s);
      ours.push({ got: hits.map((h) => h.faq), right: q.faqIds });
      // each side alone: the 50 best fused results re-ordered by that side's rank (untimed)
      const wide = await search(all, q.question, 50);
      const by = (rank: (h: Hit) => number | null) =>
        wide
          .filter((h) => rank(h) !== null)
          .sort((a, b) => rank(a)! - rank(b)!)
          .map((h) => h.faq);
      lexicalOnly.push({ got: by((h) => h.lexicalRank), right: q.faqIds });
      vectorOnly.push({ got: by((h) => h.vectorRank), right: q.faqIds });
    }
    const baseline = bm25(set.faqs);
    const base = set.queries.map((q) => ({ got: baseline(q.question), right: q.faqIds }));
    const mine = score(ours);
    const theirs = score(base);
    const fmt = (s: Scores) =>
      `P@1 ${s.p1.toFixed(3)}  MRR@10 ${s.mrr10.toFixed(3)}  recall@5 ${s.r5.toFixed(3)}`;
    console.log(
      `quality: ${set.name}, ${set.faqs.length} FAQs, ${set.queries.length} questions, ${database.kind}, embedder ${ctx.embedder.id}`,
    );
    console.log(`  search  ${fmt(mine)}  (hybrid)`);
    const lexicalScores = score(lexicalOnly);
    const vectorScores = score(vectorOnly);
    console.log(`  lexical ${fmt(lexicalScores)}  (its side alone)`);
    console.log(`  vector  ${fmt(vectorScores)}  (its side alone)`);
    console.log(`  BM25    ${fmt(theirs)}`);
    console.log(
      `  P@1 vs BM25: ${((mine.p1 / Math.max(1e-9, theirs.p1) - 1) * 100).toFixed(1)}% (target >= +10%); search p50 ${pct(latency, 50).toFixed(1)} ms, p95 ${pct(latency, 95).toFixed(1)} ms; ingested in ${(ingestMs / 1000).toFixed(1)} s`,
    );
    const results: Record<string, unknown> = {
      set: set.name,
      database: database.kind,
      embedder: ctx.embedder.id,
      search: mine,
      lexical: lexicalScores,
      vector: vectorScores,
      bm25: theirs,
      searchP50: pct(latency, 50),
      searchP95: pct(latency, 95),
    };

    if (process.env.QUALITY_RESPONDER !== '0') {
      // The offline responder on the same retrieval the chat uses: in scope (every FAQ known),
      // and out of scope (an assistant that knows only the first half, asked the second half's questions).
      const half = Math.ceil(set.faqs.length / 2);
      const known = new Set(set.faqs.slice(0, half).map((f) => f.id));
      const firstHalf = await assistant('First half', set.faqs.slice(0, half));
      await ingest();
      const respond = async (a: typeof all, q: string) => {
        const hits = await search(a, q, 5);
        const passages = hits.map((h, i) => ({
          index: i + 1,
          chunkId: h.chunkId,
          sourceId: h.sourceId,
          title: h.title,
          url: null,
          content: h.content,
          relevance: h.relevance,
        }));
        const reply = answerFromPassages(q, passages);
        const cited = reply === NOT_FOUND ? null : /\[(\d+)\]/.exec(reply)?.[1];
        const p = cited ? passages[Number(cited) - 1] : undefined;
        // the chat's own measure (chat/confidence.ts), on the reply as the engine would record it
        const confidence = replyConfidence({
          question: q,
          outcome: p ? 'answered' : 'declined',
          citations: p
            ? [{ index: p.index, chunkId: p.chunkId, sourceId: p.sourceId, title: p.title, url: null }]
            : [],
          toolCalls: [],
          passages,
        });
        return { faq: p ? hits[p.index - 1]?.faq : undefined, confidence: confidence ?? 0 };
      };
      let answered = 0;
      let right = 0;
      // calibration: answers by confidence decile, and how many of them cite a right FAQ
      const deciles = Array.from({ length: 10 }, () => ({ answers: 0, right: 0 }));
      for (const q of set.queries) {
        const r = await respond(all, q.question);
        if (r.faq) answered++;
        if (r.faq && q.faqIds.includes(r.faq)) right++;
        if (!r.faq) continue;
        const d = deciles[Math.min(9, Math.floor(r.confidence * 10))]!;
        d.answers++;
        if (q.faqIds.includes(r.faq)) d.right++;
      }
      const confident = deciles.slice(5).reduce((a, d) => ({ n: a.n + d.answers, r: a.r + d.right }), {
        n: 0,
        r: 0,
      });
      const outside = set.queries.filter((q) => q.faqIds.every((id) => !known.has(id)));
      let wrongly = 0;
      for (const q of outside) if ((await respond(firstHalf, q.question)).faq) wrongly++;
      const inside = set.queries.filter((q) => q.faqIds.some((id) => known.has(id)));
      let insideRight = 0;
      for (const q of inside) {
        const r = await respond(firstHalf, q.question);
        if (r.faq && q.faqIds.includes(r.faq)) insideRight++;
      }
      // questions of a different set (bench/quality-out-of-scope.json, OUT_OF_SCOPE=path) to the
      // assistant that knows every FAQ
      const foreign = (
        JSON.parse(readFileSync(process.env.OUT_OF_SCOPE ?? defaultOutOfScope, 'utf8')) as {
          queries: string[];
        }
      ).queries;
      let foreignAnswered = 0;
      for (const q of foreign) if ((await respond(all, q)).faq) foreignAnswered++;
      const responder = {
        foreignAnswered: foreignAnswered / Math.max(1, foreign.length),
        answered: answered / set.queries.length,
        citesRight: right / set.queries.length,
        citesWrong: (answered - right) / set.queries.length,
        confidentRight: confident.r / Math.max(1, confident.n),
        deciles,
        halfCitesRight: insideRight / Math.max(1, inside.length),
        outOfScopeAnswered: wrongly / Math.max(1, outside.length),
      };
      console.log(
        `  responder: answers ${(responder.foreignAnswered * 100).toFixed(1)}% of ${foreign.length} questions of another set (lower is better)`,
      );
      console.log(
        `  responder: answers ${(responder.answered * 100).toFixed(1)}%, cites the right FAQ ${(responder.citesRight * 100).toFixed(1)}%, a wrong one ${(responder.citesWrong * 100).toFixed(1)}%; half-known assistant: right ${(responder.halfCitesRight * 100).toFixed(1)}% of ${inside.length} in-scope, answers ${(responder.outOfScopeAnswered * 100).toFixed(1)}% of ${outside.length} out-of-scope (lower is better)`,
      );
      console.log(
        `  confidence (answers, right share by decile): ${deciles.map((d, i) => `${i / 10}: ${d.right}/${d.answers}`).join('  ')}; >= 0.5: ${(responder.confidentRight * 100).toFixed(1)}% right of ${confident.n}`,
      );
      results.responder = responder;

      // A new user's first bases (bench/quality-small-bases.json): one source of one sentence or
      // one paragraph, three Q&A pairs. Their questions, then every off-topic question, to each.
      const small = JSON.parse(readFileSync(defaultSmall, 'utf8')) as SmallBases;
      const offTopic = [...foreign, ...small.offTopic];
      const smallResults: Array<Record<string, unknown>> = [];
      for (const b of small.bases) {
        const id = (
          await call('POST', '/api/assistants', cookie, { workspaceId: 'ws_quality', name: b.name })
        ).json().data.id as string;
        await call('POST', `/api/assistants/${id}/sources`, cookie, b.source);
        await ingest();
        const reply = async (q: string) => {
          const hits = await search({ id, faqOf: new Map() }, q, 5);
          return answerFromPassages(
            q,
            hits.map((h, i) => ({ ...h, index: i + 1, url: null })),
          );
        };
        const missed: string[] = [];
        for (const q of b.questions)
          if (!(await reply(q.question)).includes(q.expect)) missed.push(q.question);
        const right = b.questions.length - missed.length;
        const answeredOffTopic: string[] = [];
        for (const q of offTopic) if ((await reply(q)) !== NOT_FOUND) answeredOffTopic.push(q);
        const off = answeredOffTopic.length;
        smallResults.push({
          base: b.name,
          right,
          of: b.questions.length,
          missed,
          offTopicAnswered: off,
          offTopic: offTopic.length,
          answeredOffTopic,
        });
        console.log(
          `  small base "${b.name}": right ${right} of ${b.questions.length}; answers ${off} of ${offTopic.length} off-topic questions (lower is better)`,
        );
      }
      results.smallBases = smallResults;
    }
    return results;
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runQualityBench(), null, 2));
}
