/* Auto-assignment (docs/inbox.md "Auto-assignment"): each workspace's inbox settings, when a member last had the inbox's live stream open and was last given a conversation, and which waiting conversations it may assign. */
CREATE TABLE "inbox_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"auto_assign" boolean DEFAULT false NOT NULL,
	"max_open_per_agent" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "inbox_seen_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "last_assigned_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "waiting_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "assignment_held" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "conversations_waiting_idx" ON "conversations" ("workspace_id", "waiting_since", "id") WHERE "status" = 'handoff' AND "assignee_id" IS NULL;
