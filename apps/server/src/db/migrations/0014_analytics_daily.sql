/* Per-day analytics counters (docs/analytics.md "Per-day counters"; docs/decisions/0022-analytics.md "Per-day counters"): written by hand, outside the Drizzle schema (only features/analytics/rollup.ts and the triggers below write them). Filled by the `analytics-rollup` job for closed UTC days; the open tail is counted live. */
CREATE TABLE "analytics_daily" (
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"conversations" integer NOT NULL DEFAULT 0,
	"handed_off" integer NOT NULL DEFAULT 0,
	"resolved" integer NOT NULL DEFAULT 0,
	"ai_replies" integer NOT NULL DEFAULT 0,
	"inbound" integer NOT NULL DEFAULT 0,
	"outbound" integer NOT NULL DEFAULT 0,
	PRIMARY KEY ("workspace_id", "day", "channel")
);--> statement-breakpoint
/* Per workspace: every UTC day up to `through` is rolled up in analytics_daily (unless marked in analytics_dirty). */
CREATE TABLE "analytics_rollups" (
	"workspace_id" text PRIMARY KEY NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"through" date,
	"rolled_at" timestamp with time zone
);--> statement-breakpoint
/* Days whose rows changed after they ended: counted live until the job rolls them up again. */
CREATE TABLE "analytics_dirty" (
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"marked_at" timestamp with time zone NOT NULL DEFAULT now(),
	PRIMARY KEY ("workspace_id", "day")
);--> statement-breakpoint
/* Marks a past UTC day of a workspace as changed. ON CONFLICT DO UPDATE takes the mark's row lock, so the job's DELETE of a mark waits for the change's commit (features/analytics/rollup.ts). Skipped for a workspace being deleted (its rows go with it). */
CREATE OR REPLACE FUNCTION parley_analytics_mark(ws text, d date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d < (now() AT TIME ZONE 'UTC')::date AND EXISTS (SELECT 1 FROM workspaces WHERE id = ws) THEN
    INSERT INTO analytics_dirty (workspace_id, day) VALUES (ws, d)
    ON CONFLICT (workspace_id, day) DO UPDATE SET marked_at = excluded.marked_at;
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION parley_analytics_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM parley_analytics_mark(OLD.workspace_id, (OLD.created_at AT TIME ZONE 'UTC')::date); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM parley_analytics_mark(NEW.workspace_id, (NEW.created_at AT TIME ZONE 'UTC')::date); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION parley_analytics_rows_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM parley_analytics_mark(g.workspace_id, g.day)
     FROM (SELECT DISTINCT workspace_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM gone) g;
  RETURN NULL;
END $$;--> statement-breakpoint
/* A conversation or message written on a past day: a row-level trigger whose WHEN is false for today's rows, so an ordinary write calls no function. */
CREATE TRIGGER analytics_conversation_inserted AFTER INSERT ON "conversations" FOR EACH ROW
  WHEN ((NEW.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION parley_analytics_row_changed();--> statement-breakpoint
/* A past day's conversation that changes what it counts as: handed off, a second message (resolved), or moved. */
CREATE TRIGGER analytics_conversation_updated AFTER UPDATE OF handed_off_at, message_count, channel, created_at, workspace_id ON "conversations" FOR EACH ROW
  WHEN (((OLD.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date
         OR (NEW.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date)
    AND ((OLD.handed_off_at IS NULL) <> (NEW.handed_off_at IS NULL)
         OR (OLD.message_count >= 2) <> (NEW.message_count >= 2)
         OR OLD.channel <> NEW.channel OR OLD.created_at <> NEW.created_at OR OLD.workspace_id <> NEW.workspace_id))
  EXECUTE FUNCTION parley_analytics_row_changed();--> statement-breakpoint
CREATE TRIGGER analytics_conversations_deleted AFTER DELETE ON "conversations"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION parley_analytics_rows_deleted();--> statement-breakpoint
CREATE TRIGGER analytics_message_inserted AFTER INSERT ON "messages" FOR EACH ROW
  WHEN ((NEW.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION parley_analytics_row_changed();--> statement-breakpoint
CREATE TRIGGER analytics_message_updated AFTER UPDATE OF role, status, created_at, conversation_id, workspace_id ON "messages" FOR EACH ROW
  WHEN (((OLD.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date
         OR (NEW.created_at AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date)
    AND (OLD.role <> NEW.role OR OLD.status <> NEW.status OR OLD.created_at <> NEW.created_at
         OR OLD.conversation_id <> NEW.conversation_id OR OLD.workspace_id <> NEW.workspace_id))
  EXECUTE FUNCTION parley_analytics_row_changed();--> statement-breakpoint
CREATE TRIGGER analytics_messages_deleted AFTER DELETE ON "messages"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION parley_analytics_rows_deleted();
