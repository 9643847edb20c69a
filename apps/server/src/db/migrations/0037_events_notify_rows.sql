/* The outbox relay is woken only by an insert that stored events (docs/decisions/0003): a statement-level trigger also fires for an insert of no rows, and a chat's statements insert its events from a list that is empty for a private internal chat, so the relay of every process was woken and polled about once a chat for nothing (docs/performance.md "Chat capacity"). The inserted rows are read from the statement's transition table. */
CREATE OR REPLACE FUNCTION parley_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted) THEN
    PERFORM pg_notify('parley_events', '');
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_notify ON events;--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION parley_events_notify();
