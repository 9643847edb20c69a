CREATE TABLE "conversation_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"kind" text NOT NULL,
	"from_status" text NOT NULL,
	"status" text NOT NULL,
	"assignee_id" text,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "handed_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversation_changes" ADD CONSTRAINT "conversation_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_changes" ADD CONSTRAINT "conversation_changes_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_changes_conversation_idx" ON "conversation_changes" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_inbox_idx" ON "conversations" USING btree ("workspace_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_inbox_status_idx" ON "conversations" USING btree ("workspace_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_inbox_assignee_idx" ON "conversations" USING btree ("workspace_id","assignee_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_inbox_channel_idx" ON "conversations" USING btree ("workspace_id","channel","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_inbox_assistant_idx" ON "conversations" USING btree ("assistant_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "widget_sessions_conversation_idx" ON "widget_sessions" USING btree ("conversation_id");--> statement-breakpoint
UPDATE "conversations" SET "last_message_at" = "created_at" WHERE "last_message_at" IS NULL;--> statement-breakpoint
UPDATE "conversations" SET "handed_off_at" = "updated_at" WHERE "status" = 'handoff';
