-- Vectors only where the index is needed (docs/decisions/0004-knowledge.md "Deferred vectors"):
-- HNSW maintenance in WASM was most of PGlite's ingestion time, and namespaces up to the adaptive
-- threshold are searched exactly anyway. A namespace listed here gets embedding_v on insert;
-- `ready` once its backfill has filled every older row, from then on the HNSW path may search it.
CREATE TABLE IF NOT EXISTS knowledge_vector_namespaces (
  namespace text PRIMARY KEY,
  ready boolean NOT NULL DEFAULT false,
  requested_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Namespaces filled under 0001 keep their vectors and stay searchable through the index.
INSERT INTO knowledge_vector_namespaces (namespace, ready)
  SELECT DISTINCT namespace, true FROM knowledge_chunks WHERE embedding_v IS NOT NULL
  ON CONFLICT (namespace) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION knowledge_chunks_set_vector() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM knowledge_vector_namespaces WHERE namespace = NEW.namespace) THEN
    NEW.embedding_v := NEW.embedding::vector;
  ELSE
    NEW.embedding_v := NULL;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
