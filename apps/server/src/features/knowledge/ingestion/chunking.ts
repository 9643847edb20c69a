/**
 * Structure-aware chunking (docs/knowledge.md "Chunking"): sections follow Markdown headings, chunks pack
 * whole paragraphs up to a token budget with one paragraph (or a sentence tail) of overlap, and every
 * chunk keeps its heading path and position for citations. Parsers turn every format into this
 * Markdown-ish text first, so one chunker serves all static sources.
 */
export type Chunk = {
  /** Heading path, e.g. "Billing › Refunds"; empty at the top of a document. */
  heading: string;
  content: string;
  /** 0-based order within its source. */
  position: number;
  tokenCount: number;
};

export type ChunkOptions = { maxTokens?: number; overlapTokens?: number };

const DEFAULT_MAX = 350;
const DEFAULT_OVERLAP = 50;

/** About four characters a token for English text; good enough for budgeting. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

type Block = { heading: string; text: string };

/** Splits text into paragraph blocks, tracking the heading path; fenced code stays whole. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  const path: string[] = [];
  let buf: string[] = [];
  let fenced = false;
  const flush = () => {
    const para = buf.join('\n').trim();
    if (para) out.push({ heading: path.filter(Boolean).join(' › '), text: para });
    buf = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      buf.push(line);
      if (!fenced) flush();
      continue;
    }
    if (fenced) {
      buf.push(line);
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h?.[1] && h[2] !== undefined) {
      flush();
      const level = h[1].length;
      path.length = level - 1;
      path[level - 1] = h[2];
      continue;
    }
    if (line.trim() === '') flush();
    else buf.push(line);
  }
  flush();
  return out;
}

/** Breaks an over-long paragraph at sentence ends, then at words. */
function splitLong(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) <= maxTokens) return [text];
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+|\n|$)\s*/g) ?? [text];
  const parts: string[] = [];
  let cur = '';
  for (const s of sentences) {
    if (estimateTokens(s) > maxTokens) {
      if (cur) parts.push(cur.trim());
      cur = '';
      const words = s.split(/\s+/);
      let piece = '';
      for (const word of words) {
        const next = piece ? `${piece} ${word}` : word;
        if (estimateTokens(next) > maxTokens && piece) {
          parts.push(piece);
          piece = word.slice(0, maxTokens * 4);
        } else piece = next.slice(0, maxTokens * 4);
      }
      if (piece) cur = piece;
      continue;
    }
    if (estimateTokens(cur + s) > maxTokens && cur) {
      parts.push(cur.trim());
      cur = '';
    }
    cur += s;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** The tail of a chunk carried into the next one: the last paragraph, or its last sentences. */
function overlapOf(paragraphs: string[], overlapTokens: number): string[] {
  const last = paragraphs[paragraphs.length - 1];
  if (!last || overlapTokens <= 0) return [];
  if (estimateTokens(last) <= overlapTokens) return [last];
  const sentences = last.match(/[^.!?]+[.!?]+\s*/g) ?? [];
  let tail = '';
  for (let i = sentences.length - 1; i >= 0; i--) {
    const next = (sentences[i] ?? '') + tail;
    if (estimateTokens(next) > overlapTokens) break;
    tail = next;
  }
  return tail.trim() ? [tail.trim()] : [];
}

export function chunkText(text: string, opts: ChunkOptions = {}): Chunk[] {
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX;
  const overlapTokens = Math.min(opts.overlapTokens ?? DEFAULT_OVERLAP, Math.floor(maxTokens / 2));
  const chunks: Chunk[] = [];
  let heading = '';
  let paras: string[] = [];
  let fresh = 0; // paragraphs in `paras` not yet emitted in a previous chunk
  const emit = () => {
    if (fresh === 0) return;
    const content = paras.join('\n\n');
    chunks.push({ heading, content, position: chunks.length, tokenCount: estimateTokens(content) });
    paras = overlapOf(paras, overlapTokens);
    fresh = 0;
  };
  for (const block of blocks(text)) {
    if (block.heading !== heading) {
      emit();
      paras = [];
      heading = block.heading;
    }
    for (const piece of splitLong(block.text, maxTokens - overlapTokens)) {
      if (estimateTokens([...paras, piece].join('\n\n')) > maxTokens) emit();
      if (estimateTokens([...paras, piece].join('\n\n')) > maxTokens) paras = [];
      paras.push(piece);
      fresh++;
    }
  }
  emit();
  return chunks;
}

/** Q&A pairs stay whole: one chunk each, whatever their length (docs/knowledge.md "Chunking"). */
export function chunkQa(pairs: Array<{ question: string; answer: string }>): Chunk[] {
  return pairs.map((p, position) => {
    const content = `Q: ${p.question.trim()}\nA: ${p.answer.trim()}`;
    return { heading: p.question.trim(), content, position, tokenCount: estimateTokens(content) };
  });
}
