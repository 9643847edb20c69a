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

/** Top-k by dot product (vectors are unit length, so this is cosine similarity). */
export function topK(matrices: NamespaceMatrix[], query: Float32Array, k: number): Scored[] {
  const best: Scored[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (const m of matrices) {
    const d = m.dims;
    for (let row = 0; row < m.ids.length; row++) {
      let s = 0;
      const base = row * d;
      for (let i = 0; i < d; i++) s += m.data[base + i]! * query[i]!;
      if (best.length < k || s > floor) {
        best.push({ id: m.ids[row] ?? '', score: s });
        if (best.length > k) {
          best.sort((a, b) => b.score - a.score);
          best.length = k;
        }
        floor = best.length === k ? Math.min(...best.map((b) => b.score)) : Number.NEGATIVE_INFINITY;
      }
    }
  }
  return best.sort((a, b) => b.score - a.score);
}
