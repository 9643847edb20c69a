/** One interface for every embeddings backend (docs/knowledge.md "Embeddings"). */
export interface Embedder {
  /** Stable identifier stored beside each vector, e.g. "offline-hash-v1" or "openai:text-embedding-3-small". */
  readonly id: string;
  readonly dimensions: number;
  /** Cosine similarity below which a vector-only match is noise for this model (retrieval drops it). */
  readonly minSimilarity: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
