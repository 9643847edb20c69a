/* The inbox filtered by a label in the SLA order (docs/sla.md "In the inbox"): each conversation_labels row also keeps its conversation's soonest SLA due time ('infinity' when no clock runs), kept by migration 0023's trigger, now also on a change of the due times. */
ALTER TABLE "conversation_labels" ADD COLUMN "sla_due_at" timestamp with time zone DEFAULT 'infinity' NOT NULL;
--> statement-breakpoint
CREATE INDEX "conversation_labels_sla_idx" ON "conversation_labels" USING btree ("label_id", "sla_due_at", "conversation_id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION parley_conversation_labels_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due timestamptz := coalesce(least(NEW.sla_first_due_at, NEW.sla_next_due_at, NEW.sla_resolution_due_at), 'infinity');
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.labels = OLD.labels THEN
    UPDATE conversation_labels SET last_message_at = NEW.last_message_at, sla_due_at = due
     WHERE conversation_id = NEW.id
       AND (last_message_at IS DISTINCT FROM NEW.last_message_at OR sla_due_at IS DISTINCT FROM due);
    RETURN NULL;
  END IF;
  DELETE FROM conversation_labels cl
   WHERE cl.conversation_id = NEW.id
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(NEW.labels) e WHERE e->>'id' = cl.label_id);
  INSERT INTO conversation_labels (conversation_id, label_id, workspace_id, last_message_at, sla_due_at)
  SELECT NEW.id, l.id, NEW.workspace_id, NEW.last_message_at, due
    FROM labels l
   WHERE l.workspace_id = NEW.workspace_id
     AND l.id IN (SELECT e->>'id' FROM jsonb_array_elements(NEW.labels) e)
  ON CONFLICT (conversation_id, label_id) DO UPDATE
    SET last_message_at = EXCLUDED.last_message_at, sla_due_at = EXCLUDED.sla_due_at
   WHERE conversation_labels.last_message_at IS DISTINCT FROM EXCLUDED.last_message_at
      OR conversation_labels.sla_due_at IS DISTINCT FROM EXCLUDED.sla_due_at;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER conversation_labels_update ON conversations;
--> statement-breakpoint
-- A message or a clock change on a conversation without labels does not call the function.
CREATE TRIGGER conversation_labels_update AFTER UPDATE OF labels, last_message_at, sla_first_due_at, sla_next_due_at, sla_resolution_due_at ON conversations FOR EACH ROW
  WHEN (OLD.labels IS DISTINCT FROM NEW.labels
        OR (NEW.labels <> '[]'::jsonb
            AND (OLD.last_message_at IS DISTINCT FROM NEW.last_message_at
                 OR OLD.sla_first_due_at IS DISTINCT FROM NEW.sla_first_due_at
                 OR OLD.sla_next_due_at IS DISTINCT FROM NEW.sla_next_due_at
                 OR OLD.sla_resolution_due_at IS DISTINCT FROM NEW.sla_resolution_due_at)))
  EXECUTE FUNCTION parley_conversation_labels_sync();
--> statement-breakpoint
UPDATE conversation_labels cl
   SET sla_due_at = coalesce(least(c.sla_first_due_at, c.sla_next_due_at, c.sla_resolution_due_at), 'infinity')
  FROM conversations c
 WHERE c.id = cl.conversation_id
   AND (c.sla_first_due_at IS NOT NULL OR c.sla_next_due_at IS NOT NULL OR c.sla_resolution_due_at IS NOT NULL);
