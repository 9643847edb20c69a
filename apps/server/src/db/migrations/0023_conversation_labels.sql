/* Conversation labels as rows (docs/labels.md "Filters"): one row per label on a conversation, with its last_message_at, so the inbox list filtered by a label walks an index in the list's order instead of the conversations newest first (docs/performance.md "Inbox"). Kept in step with conversations.labels and last_message_at by a trigger; conversations.labels stays what every shape and event carries. */
CREATE TABLE "conversation_labels" (
	"conversation_id" text NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
	"label_id" text NOT NULL REFERENCES "labels"("id") ON DELETE cascade,
	"workspace_id" text NOT NULL,
	"last_message_at" timestamp with time zone,
	PRIMARY KEY ("conversation_id", "label_id")
);
--> statement-breakpoint
CREATE INDEX "conversation_labels_inbox_idx" ON "conversation_labels" USING btree ("label_id","last_message_at" DESC NULLS LAST,"conversation_id" DESC NULLS LAST);
--> statement-breakpoint
-- A new activity with the same set moves the rows' last_message_at; a new set (given, renamed in,
-- a label deleted out) drops the rows of labels no longer in it and adds the new ones. Only ids
-- of the conversation's own workspace's labels become rows.
CREATE OR REPLACE FUNCTION parley_conversation_labels_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.labels = OLD.labels THEN
    UPDATE conversation_labels SET last_message_at = NEW.last_message_at
     WHERE conversation_id = NEW.id AND last_message_at IS DISTINCT FROM NEW.last_message_at;
    RETURN NULL;
  END IF;
  DELETE FROM conversation_labels cl
   WHERE cl.conversation_id = NEW.id
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(NEW.labels) e WHERE e->>'id' = cl.label_id);
  INSERT INTO conversation_labels (conversation_id, label_id, workspace_id, last_message_at)
  SELECT NEW.id, l.id, NEW.workspace_id, NEW.last_message_at
    FROM labels l
   WHERE l.workspace_id = NEW.workspace_id
     AND l.id IN (SELECT e->>'id' FROM jsonb_array_elements(NEW.labels) e)
  ON CONFLICT (conversation_id, label_id) DO UPDATE SET last_message_at = EXCLUDED.last_message_at
   WHERE conversation_labels.last_message_at IS DISTINCT FROM EXCLUDED.last_message_at;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER conversation_labels_insert AFTER INSERT ON conversations FOR EACH ROW
  WHEN (NEW.labels <> '[]'::jsonb) EXECUTE FUNCTION parley_conversation_labels_sync();
--> statement-breakpoint
-- A message on a conversation without labels does not call the function.
CREATE TRIGGER conversation_labels_update AFTER UPDATE OF labels, last_message_at ON conversations FOR EACH ROW
  WHEN (OLD.labels IS DISTINCT FROM NEW.labels
        OR (OLD.last_message_at IS DISTINCT FROM NEW.last_message_at AND NEW.labels <> '[]'::jsonb))
  EXECUTE FUNCTION parley_conversation_labels_sync();
--> statement-breakpoint
-- After the triggers: they hold off writes to conversations until this commits, so none is missed.
INSERT INTO conversation_labels (conversation_id, label_id, workspace_id, last_message_at)
SELECT c.id, l.id, c.workspace_id, c.last_message_at
  FROM conversations c
 CROSS JOIN LATERAL jsonb_array_elements(c.labels) e
  JOIN labels l ON l.id = e->>'id' AND l.workspace_id = c.workspace_id
 WHERE c.labels <> '[]'::jsonb
ON CONFLICT DO NOTHING;
