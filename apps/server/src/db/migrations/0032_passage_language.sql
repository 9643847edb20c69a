-- The language of each passage, detected at ingestion (docs/languages.md "Retrieval"): a stored
-- language tag (packages/contract/src/languages.ts), or NULL when the text was too short to tell or
-- was stored before languages were detected. `segmented`: the passage's words separated by spaces,
-- only for text in scripts written without spaces (Chinese, Japanese, Thai), which PostgreSQL's
-- parser cannot split. Full text reads each passage with its language's text search configuration
-- (the table of features/knowledge/retrieval/analysis.ts PG_CONFIGS), 'simple' where PostgreSQL
-- has none.
ALTER TABLE "knowledge_chunks" ADD COLUMN "language" text;
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "segmented" text;
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" DROP COLUMN "tsv";
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector(CASE "language"
  WHEN 'ar' THEN 'arabic'::regconfig WHEN 'da' THEN 'danish'::regconfig WHEN 'de' THEN 'german'::regconfig
  WHEN 'en' THEN 'english'::regconfig WHEN 'es' THEN 'spanish'::regconfig WHEN 'fi' THEN 'finnish'::regconfig
  WHEN 'fr' THEN 'french'::regconfig WHEN 'hu' THEN 'hungarian'::regconfig WHEN 'it' THEN 'italian'::regconfig
  WHEN 'nl' THEN 'dutch'::regconfig WHEN 'no' THEN 'norwegian'::regconfig WHEN 'pt' THEN 'portuguese'::regconfig
  WHEN 'ro' THEN 'romanian'::regconfig WHEN 'ru' THEN 'russian'::regconfig WHEN 'sv' THEN 'swedish'::regconfig
  WHEN 'tr' THEN 'turkish'::regconfig ELSE 'simple'::regconfig END,
  coalesce("segmented", coalesce(heading, '') || ' ' || coalesce(title, '') || ' ' || content))) STORED;
