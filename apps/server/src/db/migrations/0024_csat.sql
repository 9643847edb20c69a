/* Satisfaction surveys (docs/csat.md): the workspace's question, and each conversation's rating and when it was asked by SMS. */
ALTER TABLE "inbox_settings" ADD COLUMN "csat_enabled" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "inbox_settings" ADD COLUMN "csat_question" text DEFAULT 'How would you rate the help you received?' NOT NULL;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_rating" integer;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_comment" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_rated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_asked_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "conversations_csat_idx" ON "conversations" ("workspace_id", "csat_rated_at") WHERE "csat_rated_at" IS NOT NULL;
