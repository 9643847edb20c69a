import { modelMessageSchema } from 'ai';
import type { Config } from '../../config.ts';
import { createOfflineModel } from './offline.ts';
import { createRemoteModel } from './remote.ts';
import type { ChatModel, ReplyKnowledge } from './types.ts';

export { TOOL_NAMES } from '@parley/contract/tools';
export type { ChatModel, Passage, ReplyKnowledge } from './types.ts';

/**
 * The one model interface (docs/chat.md "Models"): the built-in offline responder unless AI_PROVIDER
 * names a remote one. Remote models are built once per configuration; the offline responder is
 * built per reply because it reads that reply's retrieved passages.
 */
export function modelFor(config: Config['ai'], knowledge: ReplyKnowledge): ChatModel {
  if (config.provider === 'offline') return createOfflineModel(knowledge);
  let remote = cache.get(config);
  if (!remote) {
    remote = createRemoteModel(config);
    cache.set(config, remote);
  }
  return remote;
}

const cache = new WeakMap<Config['ai'], ChatModel>();

// Every AI SDK call checks its messages against a new `z.array(modelMessageSchema)`. zod remembers
// whether a schema can recurse only once the lazy schemas inside it are resolved, and a lazy is
// resolved only by a parse that reaches it: until then each call walked the whole message schema
// again (47 µs a call; 10 once resolved, docs/performance.md "Chat capacity"). One parse of a
// message with provider options, at load, resolves them.
modelMessageSchema.safeParse({ role: 'user', content: '', providerOptions: { p: { v: [null] } } });
