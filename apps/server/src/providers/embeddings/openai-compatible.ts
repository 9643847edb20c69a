import { trustedFetch } from '../../lib/outbound/web-fetch.ts';
import type { Embedder } from './types.ts';

export type OpenAiEmbeddingsOptions = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  dimensions: number;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  /** Below this cosine similarity a vector-only match is dropped (default 0.2). */
  minSimilarity?: number;
};

type EmbeddingsResponse = { data: Array<{ index: number; embedding: number[] }> };

/**
 * Any server speaking OpenAI's `POST /embeddings` (OpenAI, Ollama, vLLM, LM Studio, llama.cpp).
 * Vectors are re-normalised so cosine distance works whatever the server returns.
 */
export function createOpenAiCompatibleEmbedder(opts: OpenAiEmbeddingsOptions): Embedder {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const batchSize = opts.batchSize ?? 64;
  async function embedBatch(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
    const res = await trustedFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: opts.model,
        input: texts,
        dimensions: opts.dimensions,
        encoding_format: 'float',
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 300);
      throw new Error(`Embeddings provider answered ${res.status}: ${detail}`);
    }
    const body = (await res.json()) as EmbeddingsResponse;
    const out: Float32Array[] = new Array(texts.length);
    for (const item of body.data) {
      if (item.embedding.length !== opts.dimensions) {
        throw new Error(
          `Embeddings provider returned ${item.embedding.length} dimensions; expected ${opts.dimensions}`,
        );
      }
      out[item.index] = normalise(Float32Array.from(item.embedding));
    }
    if (out.some((v) => !v)) throw new Error('Embeddings provider returned fewer vectors than texts');
    return out;
  }
  return {
    id: `openai:${opts.model}:${opts.dimensions}`,
    dimensions: opts.dimensions,
    minSimilarity: opts.minSimilarity ?? 0.2,
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await embedBatch(texts.slice(i, i + batchSize), signal)));
      }
      return out;
    },
  };
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / n;
  return v;
}
