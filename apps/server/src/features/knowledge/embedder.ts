import type { Config } from '../../config.ts';
import { createOpenAiCompatibleEmbedder } from '../../providers/embeddings/openai-compatible.ts';
import { createSemanticEmbedder } from '../../providers/embeddings/semantic.ts';
import type { Embedder } from '../../providers/embeddings/types.ts';

/** The configured embeddings provider (EMBEDDINGS_PROVIDER): built once by bootstrap.ts as `ctx.embedder`. */
export function createEmbedder(c: Config['embeddings']): Embedder {
  return c.provider === 'openai'
    ? createOpenAiCompatibleEmbedder({
        baseUrl: c.baseUrl,
        apiKey: c.apiKey,
        model: c.model,
        dimensions: c.dimensions,
      })
    : createSemanticEmbedder();
}
