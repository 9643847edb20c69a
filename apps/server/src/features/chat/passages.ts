import type { Citation } from '../../db/schema/index.ts';
import type { Passage } from '../../providers/llm/index.ts';
import type { RetrievedChunk } from '../knowledge/retrieval/retrieval.ts';

const MAX_PASSAGE_CHARS = 2000;

/**
 * The passages of one reply, numbered across the up-front retrieval and any later
 * `search_knowledge` calls, so every `[n]` in the answer names exactly one chunk (docs/chat.md "The prompt").
 */
export class PassageBook {
  readonly passages: Passage[] = [];
  private readonly byChunk = new Map<string, Passage>();

  add(chunks: RetrievedChunk[]): Passage[] {
    return chunks.map((c) => {
      const known = this.byChunk.get(c.chunkId);
      if (known) return known;
      const passage: Passage = {
        index: this.passages.length + 1,
        chunkId: c.chunkId,
        sourceId: c.sourceId,
        title: c.heading || c.title,
        url: c.url,
        relevance: c.relevance,
        language: c.language,
        content:
          c.content.length > MAX_PASSAGE_CHARS ? `${c.content.slice(0, MAX_PASSAGE_CHARS)}…` : c.content,
      };
      this.passages.push(passage);
      this.byChunk.set(c.chunkId, passage);
      return passage;
    });
  }

  /** The passages an answer cites with `[n]` markers, in order of first mention. */
  citedBy(text: string): Citation[] {
    const seen = new Set<number>();
    const out: Citation[] = [];
    for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
      const n = Number(m[1]);
      const p = this.passages[n - 1];
      if (!p || seen.has(n)) continue;
      seen.add(n);
      out.push({ index: n, chunkId: p.chunkId, sourceId: p.sourceId, title: p.title || null, url: p.url });
    }
    return out;
  }
}
