import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { Config } from '../../config.ts';
import { trustedFetch } from '../../lib/outbound/web-fetch.ts';

/** Defaults documented in the README (AI_BASE_URL, AI_MODEL) for each remote provider. */
const DEFAULTS = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5' },
} as const;

/** Socket-level failures that mean the request got no response at all (Node's and undici's codes). */
const DROPPED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

const dropped = (err: unknown) => {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause;
  return typeof cause?.code === 'string' && DROPPED.has(cause.code);
};

/**
 * The one outbound client's `fetch` (lib/outbound/web-fetch.ts), trying once more when the
 * connection was dropped before any response: a pooled keep-alive connection the provider
 * closed just as the request went out ("other side closed", "socket hang up").
 * The engine calls models with `maxRetries: 0` (a failed reply is refunded, not retried), so this
 * is the only retry, and it never repeats a request the provider answered (5xx, 429) or one the
 * caller aborted. `fetch` rejects only before the response starts; later failures are the body's.
 */
export const fetchRetryingDrops: typeof fetch = async (input, init) => {
  try {
    return await trustedFetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted || !dropped(err)) throw err;
    return trustedFetch(input, init);
  }
};

/**
 * A remote model behind the AI SDK interface (docs/chat.md "Models"), chosen by AI_PROVIDER:
 * - 'openai': any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, llama.cpp,
 *   LM Studio). `includeUsage` asks for the final usage chunk when streaming, which credits
 *   need (docs/credits.md).
 * - 'anthropic': the Anthropic Messages API.
 * A key is required only for the providers' own hosts; a local server usually has none.
 */
export function createRemoteModel(config: Config['ai']): LanguageModel {
  if (config.provider === 'offline') {
    throw new Error(
      'createRemoteModel: AI_PROVIDER=offline uses the built-in offline responder, not a remote model',
    );
  }
  const defaults = DEFAULTS[config.provider];
  const baseURL = (config.baseUrl ?? defaults.baseUrl).replace(/\/+$/, '');
  const modelId = config.model ?? defaults.model;
  if (!config.apiKey && baseURL === defaults.baseUrl) {
    throw new Error(
      `Invalid configuration:\n  AI_API_KEY: required for AI_PROVIDER=${config.provider} at ${baseURL}`,
    );
  }
  if (config.provider === 'openai') {
    return createOpenAICompatible({
      name: 'openai',
      baseURL,
      apiKey: config.apiKey,
      includeUsage: true,
      fetch: fetchRetryingDrops,
    }).chatModel(modelId);
  }
  // An empty key rather than undefined: the SDK would otherwise fall back to ANTHROPIC_API_KEY
  // from the environment, and configuration should come from AI_* only.
  return createAnthropic({ baseURL, apiKey: config.apiKey ?? '', fetch: fetchRetryingDrops }).languageModel(
    modelId,
  );
}
