import type { AppContext } from '../../context.ts';
import { createOfflineEmbedder } from '../../providers/embeddings/offline.ts';
import { createOpenAiCompatibleEmbedder } from '../../providers/embeddings/openai-compatible.ts';
import type { Embedder } from '../../providers/embeddings/types.ts';

const embedders = new WeakMap<AppContext, Embedder>();

/** The configured embeddings provider (EMBEDDINGS_PROVIDER), built once per app. */
export function embedderFor(ctx: AppContext): Embedder {
  let e = embedders.get(ctx);
  if (!e) {
    const c = ctx.config.embeddings;
    e =
      c.provider === 'openai'
        ? createOpenAiCompatibleEmbedder({
            baseUrl: c.baseUrl,
            apiKey: c.apiKey,
            model: c.model,
            dimensions: c.dimensions,
          })
        : createOfflineEmbedder();
    embedders.set(ctx, e);
  }
  return e;
}
