import { z } from 'zod';

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
  /** The passage's language, detected at ingestion (docs/languages.md "Retrieval"); null when too short to tell. */
  language: z.string().nullable(),
  score: z.number(),
  vectorScore: z.number().nullable(),
  textScore: z.number().nullable(),
  lexicalRank: z.number().int().nullable(),
  vectorRank: z.number().int().nullable(),
  relevance: z.number(),
});

/** A live lookup in a store or spreadsheet source (docs/knowledge.md "Live lookups"). */
export const lookupBody = z.strictObject({
  query: z.string().trim().min(1).max(500),
  orderNumber: z.string().trim().min(1).max(40).optional(),
  email: z.email().max(254).optional(),
});
export const lookupResult = z.record(z.string(), z.unknown());
