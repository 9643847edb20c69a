import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { AdmissionOptions } from './lib/admission.ts';

/**
 * The one place that reads process.env (docs/architecture.md "Rules"). Every variable is documented in
 * README.md.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** A comma-separated list of non-negative seconds, e.g. "60,300" (fractions allowed for tests). */
const delays = z
  .string()
  .regex(/^\s*(\d+(\.\d+)?\s*(,\s*\d+(\.\d+)?\s*)*)?$/, 'must be comma-separated seconds, e.g. 60,300')
  .transform((v) => (v.trim() === '' ? [] : v.split(',').map((n) => Number(n.trim()))));

export const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Loopback by default: a laptop running `npm start` does not serve sign-up to its network; a
  // container or server sets HOST=0.0.0.0 (README.md "Configuration").
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  REDIS_URL: z.string().optional(),
  ENCRYPTION_KEY: z.string().optional(),
  TRUST_PROXY: bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  // DNS servers for checking inbound mail's SPF, DKIM and DMARC (docs/email.md "Authentication").
  EMAIL_DNS_SERVERS: z.string().optional(),
  // How long one of those lookups waits for an answer before its one retry (which waits twice that).
  EMAIL_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 * 1024),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  // Which background jobs this process runs (docs/jobs.md "Which process runs which job").
  JOBS: z.string().default('all'),
  // Unset: no /metrics at all. Set: Prometheus scrapes with it as a bearer token (docs/metrics.md).
  METRICS_TOKEN: z.string().min(16, 'Use at least 16 characters').max(200).optional(),
  EMBEDDINGS_PROVIDER: z.enum(['offline', 'openai']).default('offline'),
  EMBEDDINGS_BASE_URL: z.string().default('https://api.openai.com/v1'),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(8).max(4096).default(1536),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  // Uploaded files are parsed in a worker within these limits (docs/knowledge.md "Hostile and broken files").
  FILE_MAX_UNPACKED_MB: z.coerce.number().int().min(1).max(4096).default(200),
  FILE_MAX_ENTRIES: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  FILE_MAX_COMPRESSION_RATIO: z.coerce.number().int().min(2).max(100_000).default(100),
  FILE_PARSE_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(256),
  // Below the ingestion lease (300 s), so a slow parse never outlives its claim.
  FILE_PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(240).default(60),
  // Webhooks (docs/webhooks.md "Delivery, retries and replay"): retry delays in seconds after each failed
  // attempt, per format.
  WEBHOOK_RETRY_DELAYS_A: delays.prefault('60,300'),
  WEBHOOK_RETRY_DELAYS_B: delays.prefault('60,300,1800'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool,
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(100),
  // Chat engine (docs/chat.md "Models"): the model behind every assistant, and credits (docs/credits.md).
  AI_PROVIDER: z.enum(['offline', 'openai', 'anthropic']).default('offline'),
  AI_BASE_URL: z.string().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  CHAT_HISTORY_TOKENS: z.coerce.number().int().min(100).max(1_000_000).default(6000),
  CHAT_KEEPALIVE_MS: z.coerce.number().int().min(10).max(600_000).default(15_000),
  // Overload (docs/configuration.md "Overload"): when a new chat is refused with 503; 0 turns a rule off.
  CHAT_SHED_AFTER_MS: z.coerce.number().int().min(0).max(600_000).default(100),
  CHAT_SHED_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(50),
  // Listening sockets on the port (http/acceptors.ts): each turn of a busy loop takes one new connection from each.
  HTTP_ACCEPTORS: z.coerce.number().int().min(1).max(64).default(8),
  // Unset: 5 on PostgreSQL, 15 on PGlite, whose statements take turns in one lane (docs/configuration.md "Overload").
  CHAT_START_TARGET_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  CHAT_MAX_STARTING: z.coerce.number().int().min(0).max(1_000_000).default(0),
  TEST_RUN_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(30),
  TEST_RUN_LEASE_SECONDS: z.coerce.number().min(1).max(3_600).default(60),
  ENTERPRISE_MONTHLY_CREDITS: z.coerce.number().int().min(0).default(100_000),
  // Widget (docs/widget.md "Limits"): POSTs per minute per client IP on the public widget paths,
  // counted in a window of 60 s; a test shortens the window to see a refused message go by itself.
  WIDGET_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  WIDGET_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  // SMS (docs/sms.md "The provider"): the provider's REST API, the real one unless a stand-in is named.
  SMS_PROVIDER_API_BASE: z.url().default('https://api.twilio.com'),
  // Stripe (docs/billing.md "Stripe"): unset key → plan changes are the operator's `npm run plan`.
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_PRO: z.string().optional(),
  STRIPE_PRICE_ENTERPRISE: z.string().optional(),
  // Where the Stripe library sends its requests: Stripe itself, or a stand-in (tests).
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
  // SSO (docs/sso.md "Verifying a domain"): DNS servers (host:port, comma separated) for the TXT check.
  SSO_DNS_SERVERS: z.string().optional(),
});

export type Config = {
  env: string;
  port: number;
  host: string;
  publicBaseUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  redisUrl: string | undefined;
  encryptionKey: Buffer;
  trustProxy: boolean;
  logLevel: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** `host:port` list for the email channel's SPF/DKIM/DMARC lookups; empty: the system's. */
  emailDnsServers: string[];
  /** One SPF/DKIM/DMARC lookup's wait for an answer before its retry (docs/email.md "Authentication"). */
  emailDnsTimeoutMs: number;
  apiRateLimitPerMinute: number;
  authRateLimitPerMinute: number;
  loginFailuresPerAccount: number;
  sessionTtlDays: number;
  bodyLimitBytes: number;
  shutdownGraceMs: number;
  /** Listening sockets on the one port (http/acceptors.ts). */
  httpAcceptors: number;
  /** The JOBS setting as given: `all`, `none` or names (jobs/catalog.ts `jobsFromSetting`). */
  jobs: string;
  metricsToken: string | undefined;
  embeddings: {
    provider: 'offline' | 'openai';
    baseUrl: string;
    apiKey: string | undefined;
    model: string;
    dimensions: number;
  };
  uploadLimitBytes: number;
  files: {
    maxUnpackedMb: number;
    maxEntries: number;
    maxCompressionRatio: number;
    parseMemoryMb: number;
    parseTimeoutSeconds: number;
  };
  webhooks: {
    /** Seconds to wait after attempt n fails (index n-1); length + 1 = attempts per delivery. */
    retryDelaysA: number[];
    retryDelaysB: number[];
    timeoutMs: number;
    allowPrivateNetworks: boolean;
    concurrency: number;
  };
  ai: {
    provider: 'offline' | 'openai' | 'anthropic';
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    timeoutMs: number;
    historyTokens: number;
    keepAliveMs: number;
  };
  /** lib/admission.ts: shedding new chats beyond what the process can start in time. */
  admission: AdmissionOptions;
  enterpriseMonthlyCredits: number;
  /**
   * Test runs (docs/steering.md "Test runs"): how long after a change its run starts (changes
   * within it share the run), and how long a process holds a run it plays without showing progress.
   */
  testRuns: { delayMs: number; leaseMs: number };
  widget: { rateLimitPerMinute: number; rateLimitWindowSeconds: number };
  sms: { providerApiBase: string };
  /** DNS servers of the domain verification; empty: the system resolver. */
  sso: { dnsServers: string[] };
  stripe: {
    secretKey?: string;
    webhookSecret?: string;
    prices: { pro?: string; enterprise?: string };
    apiBase: string;
  };
};

/** Parses an environment (process.env by default) into a Config; throws a readable error on bad values. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL || undefined,
    encryptionKey: resolveEncryptionKey(e.ENCRYPTION_KEY, dataDir),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    emailDnsServers: (e.EMAIL_DNS_SERVERS ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    emailDnsTimeoutMs: e.EMAIL_DNS_TIMEOUT_MS,
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    httpAcceptors: e.HTTP_ACCEPTORS,
    jobs: e.JOBS,
    metricsToken: e.METRICS_TOKEN,
    embeddings: {
      provider: e.EMBEDDINGS_PROVIDER,
      baseUrl: e.EMBEDDINGS_BASE_URL,
      apiKey: e.EMBEDDINGS_API_KEY || undefined,
      model: e.EMBEDDINGS_MODEL,
      dimensions: e.EMBEDDINGS_DIMENSIONS,
    },
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    files: {
      maxUnpackedMb: e.FILE_MAX_UNPACKED_MB,
      maxEntries: e.FILE_MAX_ENTRIES,
      maxCompressionRatio: e.FILE_MAX_COMPRESSION_RATIO,
      parseMemoryMb: e.FILE_PARSE_MEMORY_MB,
      parseTimeoutSeconds: e.FILE_PARSE_TIMEOUT_SECONDS,
    },
    webhooks: {
      retryDelaysA: e.WEBHOOK_RETRY_DELAYS_A,
      retryDelaysB: e.WEBHOOK_RETRY_DELAYS_B,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
    ai: {
      provider: e.AI_PROVIDER,
      baseUrl: e.AI_BASE_URL || undefined,
      apiKey: e.AI_API_KEY || undefined,
      model: e.AI_MODEL || undefined,
      timeoutMs: e.AI_TIMEOUT_MS,
      historyTokens: e.CHAT_HISTORY_TOKENS,
      keepAliveMs: e.CHAT_KEEPALIVE_MS,
    },
    admission: {
      maxStartingMs: e.CHAT_SHED_AFTER_MS,
      maxLoopDelayMs: e.CHAT_SHED_LOOP_DELAY_MS,
      maxStarting: e.CHAT_MAX_STARTING,
      targetStartMs: e.CHAT_START_TARGET_MS ?? (e.DATABASE_URL ? 5 : 15),
    },
    enterpriseMonthlyCredits: e.ENTERPRISE_MONTHLY_CREDITS,
    testRuns: { delayMs: e.TEST_RUN_DELAY_SECONDS * 1000, leaseMs: e.TEST_RUN_LEASE_SECONDS * 1000 },
    widget: {
      rateLimitPerMinute: e.WIDGET_RATE_LIMIT_PER_MINUTE,
      rateLimitWindowSeconds: e.WIDGET_RATE_WINDOW_SECONDS,
    },
    sms: { providerApiBase: e.SMS_PROVIDER_API_BASE.replace(/\/+$/, '') },
    sso: {
      dnsServers: (e.SSO_DNS_SERVERS ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY || undefined,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
      prices: { pro: e.STRIPE_PRICE_PRO || undefined, enterprise: e.STRIPE_PRICE_ENTERPRISE || undefined },
      apiBase: e.STRIPE_API_BASE,
    },
  };
}

/**
 * ENCRYPTION_KEY is 32 bytes as hex or base64. When absent, one is generated once into
 * DATA_DIR/encryption.key so that a first `npm start` needs no setup (docs/configuration.md).
 */
function resolveEncryptionKey(value: string | undefined, dataDir: string): Buffer {
  if (value) {
    const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (key.length !== 32)
      throw new Error('Invalid configuration:\n  ENCRYPTION_KEY: must be 32 bytes (hex or base64)');
    return key;
  }
  const file = join(dataDir, 'encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}
