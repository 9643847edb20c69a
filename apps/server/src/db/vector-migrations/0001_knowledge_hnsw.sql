ALTER TABLE knowledge_chunks ADD COLUMN IF NOT EXISTS embedding_v vector;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION knowledge_chunks_set_vector() RETURNS trigger AS $$
BEGIN
  NEW.embedding_v := NEW.embedding::vector;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_vector BEFORE INSERT OR UPDATE OF embedding ON knowledge_chunks
  FOR EACH ROW EXECUTE FUNCTION knowledge_chunks_set_vector();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS knowledge_chunks_hnsw_384 ON knowledge_chunks
  USING hnsw ((embedding_v::vector(384)) vector_cosine_ops) WITH (m = 8, ef_construction = 32) WHERE dims = 384;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS knowledge_chunks_hnsw_768 ON knowledge_chunks
  USING hnsw ((embedding_v::vector(768)) vector_cosine_ops) WITH (m = 8, ef_construction = 32) WHERE dims = 768;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS knowledge_chunks_hnsw_1024 ON knowledge_chunks
  USING hnsw ((embedding_v::vector(1024)) vector_cosine_ops) WITH (m = 8, ef_construction = 32) WHERE dims = 1024;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS knowledge_chunks_hnsw_1536 ON knowledge_chunks
  USING hnsw ((embedding_v::vector(1536)) vector_cosine_ops) WITH (m = 8, ef_construction = 32) WHERE dims = 1536;
