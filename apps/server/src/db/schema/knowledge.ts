import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
} from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { bytea, ts } from './columns.ts';
import { assistantRef, workspaceRef } from './refs.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export type SourceType = 'text' | 'qa' | 'file' | 'website' | 'store' | 'spreadsheet';
export type SourceStatus = 'pending' | 'processing' | 'ready' | 'failed';

/** Form B projects: workspace-level document collections connected to assistants (docs/knowledge.md). */
export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('projects_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const assistantProjects = pgTable(
  'assistant_projects',
  {
    assistantId: assistantRef(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    connectedAt: ts('connected_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.assistantId, t.projectId] }),
    index('assistant_projects_project_idx').on(t.projectId),
  ],
);

/**
 * A knowledge source of an assistant (its own knowledge base) or a document of a project.
 * Static sources are chunked and embedded; realtime ones (`store`, `spreadsheet`) are read at
 * question time. The row doubles as the ingestion queue: pending rows are claimed with
 * FOR UPDATE SKIP LOCKED and leased until `locked_until`.
 */
export const knowledgeSources = pgTable(
  'knowledge_sources',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: text('assistant_id').references(() => assistants.id, { onDelete: 'cascade' }),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type').$type<SourceType>().notNull(),
    name: text('name').notNull(),
    /** Type-specific settings, never secrets. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    /** Realtime credentials, AES-256-GCM (lib/crypto). */
    secretEnc: text('secret_enc'),
    status: text('status').$type<SourceStatus>().notNull().default('pending'),
    error: text('error'),
    chunkCount: integer('chunk_count').notNull().default(0),
    lastSyncedAt: ts('last_synced_at'),
    /** Websites re-sync on a schedule; null = never automatically. */
    nextSyncAt: ts('next_sync_at'),
    lockedUntil: ts('locked_until'),
    attempts: integer('attempts').notNull().default(0),
    /** The chunk generation retrieval uses; a sync writes generation + 1, then switches atomically. */
    generation: integer('generation').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('knowledge_sources_assistant_idx').on(t.assistantId, t.createdAt),
    index('knowledge_sources_project_idx').on(t.projectId, t.createdAt),
    index('knowledge_sources_pending_idx').on(t.createdAt).where(sql`status in ('pending', 'processing')`),
    check('knowledge_sources_owner_ck', sql`(assistant_id is null) <> (project_id is null)`),
  ],
);

/** Uploaded file bytes, kept for re-sync (at most 20 MB each). */
export const sourceFiles = pgTable('source_files', {
  sourceId: text('source_id')
    .primaryKey()
    .references(() => knowledgeSources.id, { onDelete: 'cascade' }),
  filename: text('filename').notNull(),
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  content: bytea('content').notNull(),
});

/**
 * Chunks under a namespace: the assistant id for its own sources, the project id for a
 * project's documents. `embedding` is portable (real[]); where pgvector exists the vector
 * history adds an indexed copy. `tsv` feeds full-text ranking.
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSources.id, { onDelete: 'cascade' }),
    namespace: text('namespace').notNull(),
    generation: integer('generation').notNull(),
    position: integer('position').notNull(),
    heading: text('heading').notNull().default(''),
    content: text('content').notNull(),
    title: text('title').notNull().default(''),
    url: text('url'),
    tokenCount: integer('token_count').notNull(),
    embedder: text('embedder').notNull(),
    dims: integer('dims').notNull(),
    embedding: real('embedding').array().notNull(),
    /** Detected at ingestion (docs/languages.md "Retrieval"); null when too short to tell. */
    language: text('language'),
    /** The words spaced, for scripts written without spaces (migration 0032_passage_language.sql). */
    segmented: text('segmented'),
    tsv: tsvector('tsv').generatedAlwaysAs(
      sql`to_tsvector(CASE "language"
  WHEN 'ar' THEN 'arabic'::regconfig WHEN 'da' THEN 'danish'::regconfig WHEN 'de' THEN 'german'::regconfig
  WHEN 'en' THEN 'english'::regconfig WHEN 'es' THEN 'spanish'::regconfig WHEN 'fi' THEN 'finnish'::regconfig
  WHEN 'fr' THEN 'french'::regconfig WHEN 'hu' THEN 'hungarian'::regconfig WHEN 'it' THEN 'italian'::regconfig
  WHEN 'nl' THEN 'dutch'::regconfig WHEN 'no' THEN 'norwegian'::regconfig WHEN 'pt' THEN 'portuguese'::regconfig
  WHEN 'ro' THEN 'romanian'::regconfig WHEN 'ru' THEN 'russian'::regconfig WHEN 'sv' THEN 'swedish'::regconfig
  WHEN 'tr' THEN 'turkish'::regconfig ELSE 'simple'::regconfig END,
  coalesce("segmented", coalesce(heading, '') || ' ' || coalesce(title, '') || ' ' || content))`,
    ),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('knowledge_chunks_namespace_idx').on(t.namespace, t.sourceId, t.position),
    index('knowledge_chunks_source_idx').on(t.sourceId),
  ],
);

/** Bumped on every change to a namespace's chunks: in-process vector caches check it. */
export const namespaceVersions = pgTable('namespace_versions', {
  namespace: text('namespace').primaryKey(),
  version: integer('version').notNull().default(0),
});
