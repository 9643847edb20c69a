/**
 * Exact nearest-neighbour search in process, for databases without pgvector (ARCHITECTURE.md
 * facts: a Float32Array scan over 20k x 384 takes ~30 ms, SQL over real[] over a second).
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

/** Top-k by dot product (vectors are unit length, so this is cosine similarity). */
export function topK(matrices: NamespaceMatrix[], query: Float32Array, k: number): Scored[] {
  // a bounded list kept sorted descending; most rows fall below its floor and cost one compare
  const scores: number[] = [];
  const rows: Array<[NamespaceMatrix, number]> = [];
  for (const m of matrices) {
    const { data, dims } = m;
    const n = m.ids.length;
    for (let row = 0; row < n; row++) {
      const s = dot(data, row * dims, query, dims);
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
