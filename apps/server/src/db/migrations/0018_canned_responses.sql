/* Canned responses (docs/canned-responses.md): replies typed once and reused, with variables filled in for the conversation. */
CREATE TABLE "canned_responses" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"shortcut" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "canned_responses_shortcut_idx" ON "canned_responses" ("workspace_id","shortcut");
