/* Business hours (docs/business-hours.md): when a workspace's team answers; none set means always open. */
CREATE TABLE "business_hours" (
	"workspace_id" text PRIMARY KEY NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"timezone" text NOT NULL,
	"week" jsonb NOT NULL,
	"holidays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"outside_hours_message" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
