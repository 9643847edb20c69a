/**
 * Exact nearest-neighbour search in process, for databases without pgvector (docs/architecture.md
 * "Technical notes": a Float32Array scan over 20k x 384 takes ~30 ms, SQL over real[] over a second).
 * Each namespace's matrix is cached with the namespace's version from the database, so every
 * process sees a change on its next query; nothing shared lives only in memory.
 */
export type NamespaceMatrix = { version: number; dims: number; ids: string[]; data: Float32Array };

export class VectorCache {
  private readonly entries = new Map<string, NamespaceMatrix>();
  private floats = 0;

  constructor(private readonly maxFloats = 64 * 1024 * 1024) {}

  get(namespace: string, version: number, dims: number): NamespaceMatrix | undefined {
    const entry = this.entries.get(namespace);
    if (!entry || entry.version !== version || entry.dims !== dims) return undefined;
    // refresh LRU position
    this.entries.delete(namespace);
    this.entries.set(namespace, entry);
    return entry;
  }

  set(namespace: string, entry: NamespaceMatrix): void {
    this.delete(namespace);
    this.entries.set(namespace, entry);
    this.floats += entry.data.length;
    for (const [key, old] of this.entries) {
      if (this.floats <= this.maxFloats || key === namespace) break;
      this.entries.delete(key);
      this.floats -= old.data.length;
    }
  }

  delete(namespace: string): void {
    const old = this.entries.get(namespace);
    if (old) {
      this.entries.delete(namespace);
      this.floats -= old.data.length;
    }
  }
}

export type Scored = { id: string; score: number };

/** Dot product of row `row` of `data` (width `d`) with `q`, unrolled by four for the JIT. */
function dot(data: Float32Array, base: number, q: Float32Array, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += data[base + i]! * q[i]!;
    s1 += data[base + i + 1]! * q[i + 1]!;
    s2 += data[base + i + 2]! * q[i + 2]!;
    s3 += data[base + i + 3]! * q[i + 3]!;
  }
  for (; i < d; i++) s0 += data[base + i]! * q[i]!;
  return s0 + s1 + s2 + s3;
}

/** The same product over the query's non-zero entries only (`at` their indexes, `w` their values). */
function sparseDot(data: Float32Array, base: number, at: Int32Array, w: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  const z = at.length;
  let j = 0;
  for (; j + 1 < z; j += 2) {
    s0 += data[base + at[j]!]! * w[j]!;
    s1 += data[base + at[j + 1]!]! * w[j + 1]!;
  }
  if (j < z) s0 += data[base + at[j]!]! * w[j]!;
  return s0 + s1;
}

/**
 * Short questions embed sparsely (the offline embedder hashes a few dozen features into 384
 * dimensions), so below a third of the dimensions being non-zero the scan multiplies only those:
 * about 5x faster at 10,000 chunks (docs/performance.md "Knowledge"). Same result either way.
 */
function rowScorer(query: Float32Array): (data: Float32Array, base: number, dims: number) => number {
  const at: number[] = [];
  for (let i = 0; i < query.length; i++) if (query[i] !== 0) at.push(i);
  if (at.length * 3 > query.length) return (data, base, dims) => dot(data, base, query, dims);
  const idx = Int32Array.from(at);
  const w = Float32Array.from(at, (i) => query[i]!);
  return (data, base) => sparseDot(data, base, idx, w);
}

/** Top-k by dot product (vectors are unit length, so this is cosine similarity). */
export function topK(matrices: NamespaceMatrix[], query: Float32Array, k: number): Scored[] {
  const score = rowScorer(query);
  // a bounded list kept sorted descending; most rows fall below its floor and cost one compare
  const scores: number[] = [];
  const rows: Array<[NamespaceMatrix, number]> = [];
  for (const m of matrices) {
    const { data, dims } = m;
    const n = m.ids.length;
    for (let row = 0; row < n; row++) {
      const s = score(data, row * dims, dims);
      if (scores.length === k && s <= scores[k - 1]!) continue;
      let at = scores.length;
      while (at > 0 && scores[at - 1]! < s) at--;
      scores.splice(at, 0, s);
      rows.splice(at, 0, [m, row]);
      if (scores.length > k) {
        scores.pop();
        rows.pop();
      }
    }
  }
  return rows.map(([m, row], i) => ({ id: m.ids[row] ?? '', score: scores[i]! }));
}
