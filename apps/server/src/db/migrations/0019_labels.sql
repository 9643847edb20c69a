/* Labels (docs/labels.md): the workspace's labels, and each conversation's and contact's set, kept on the row as [{id, name, color}] so every shape and event carries it. */
CREATE TABLE "labels" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "labels_name_idx" ON "labels" ("workspace_id", lower("name"));
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
CREATE INDEX "conversations_labels_idx" ON "conversations" USING gin ("labels" jsonb_path_ops);
--> statement-breakpoint
CREATE INDEX "contacts_labels_idx" ON "contacts" USING gin ("labels" jsonb_path_ops);
