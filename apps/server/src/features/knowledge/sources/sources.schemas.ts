import { z } from 'zod';
import { iso, isoOrNull } from '../../../http/envelope.ts';
import type { SourceRow } from './sources.repo.ts';

/** JSON source types (docs/knowledge.md "Source types"); files arrive as multipart on their own route. */
const name = z.string().trim().min(1).max(200);
const path = z.string().trim().min(1).max(500).startsWith('/', 'Must start with /');

export const textSource = z.strictObject({
  type: z.literal('text'),
  name,
  text: z.string().min(1).max(1_000_000),
});
export const qaSource = z.strictObject({
  type: z.literal('qa'),
  name: name.optional(),
  pairs: z
    .array(
      z.strictObject({
        question: z.string().trim().min(1).max(2_000),
        answer: z.string().trim().min(1).max(20_000),
      }),
    )
    .min(1)
    .max(2_000),
});
export const websiteSource = z.strictObject({
  type: z.literal('website'),
  name: name.optional(),
  url: z.url({ protocol: /^https?$/, message: 'Must be an http(s) URL' }).max(2_000),
  mode: z.enum(['page', 'sitemap', 'crawl']).default('page'),
  maxPages: z.number().int().min(1).max(1_000).default(50),
  includePaths: z.array(path).max(50).default([]),
  excludePaths: z.array(path).max(50).default([]),
});

const httpsUrl = z.url({ protocol: /^https$/, message: 'Must be an https:// URL' }).max(2_000);
const secret = z.string().trim().min(1).max(500);

/**
 * Realtime sources (docs/knowledge.md "Realtime sources"): read live through tools, never indexed;
 * credentials encrypted.
 */
export const spreadsheetSource = z.strictObject({ type: z.literal('spreadsheet'), name, url: httpsUrl });
export const storeSource = z
  .strictObject({
    type: z.literal('store'),
    name: name.optional(),
    platform: z.enum(['shopify', 'woocommerce']),
    storeUrl: httpsUrl,
    accessToken: secret.optional(),
    consumerKey: secret.optional(),
    consumerSecret: secret.optional(),
  })
  .superRefine((v, issue) => {
    if (v.platform === 'shopify' && !v.accessToken) {
      issue.addIssue({ code: 'custom', path: ['accessToken'], message: 'Required for Shopify' });
    }
    if (v.platform === 'woocommerce') {
      for (const key of ['consumerKey', 'consumerSecret'] as const) {
        if (!v[key]) issue.addIssue({ code: 'custom', path: [key], message: 'Required for WooCommerce' });
      }
    }
  });

export const createSourceBody = z.discriminatedUnion('type', [
  textSource,
  qaSource,
  websiteSource,
  spreadsheetSource,
  storeSource,
]);
export type CreateSourceInput = z.infer<typeof createSourceBody>;

export const sourceSchema = z.object({
  id: z.string(),
  assistantId: z.string().nullable(),
  projectId: z.string().nullable(),
  type: z.enum(['text', 'qa', 'file', 'website', 'store', 'spreadsheet']),
  name: z.string(),
  status: z.enum(['pending', 'processing', 'ready', 'failed']),
  error: z.string().nullable(),
  chunkCount: z.number().int(),
  /**
   * Chunks still embedded by a previous embedder: a re-index after the embedder changed is on its
   * way (docs/knowledge.md "Changing the embedder"); 0 otherwise.
   */
  reindexPending: z.number().int(),
  lastSyncedAt: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** What a source's config shows: never secrets, never the full text. */
function publicConfig(s: SourceRow): Record<string, unknown> {
  const c = s.config;
  switch (s.type) {
    case 'text':
      return { characters: String(c.text ?? '').length };
    case 'qa':
      return { pairs: Array.isArray(c.pairs) ? c.pairs.length : 0 };
    default:
      return c;
  }
}

export const toSource = (s: SourceRow, reindexPending = 0): z.infer<typeof sourceSchema> => ({
  id: s.id,
  assistantId: s.assistantId,
  projectId: s.projectId,
  type: s.type,
  name: s.name,
  status: s.status,
  error: s.error,
  chunkCount: s.chunkCount,
  reindexPending,
  lastSyncedAt: isoOrNull(s.lastSyncedAt),
  config: publicConfig(s),
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const searchQuery = z.strictObject({
  q: z.string().trim().min(1).max(2_000),
  k: z.coerce.number().int().min(1).max(50).default(5),
});

export const searchResult = z.object({
  chunkId: z.string(),
  sourceId: z.string(),
  heading: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  position: z.number().int(),
  content: z.string(),
  score: z.number(),
  vectorScore: z.number().nullable(),
  textScore: z.number().nullable(),
  lexicalRank: z.number().int().nullable(),
  vectorRank: z.number().int().nullable(),
  relevance: z.number(),
});
