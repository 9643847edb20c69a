/* SLA policies (docs/sla.md): the workspace's targets, and each conversation's clocks under the policy chosen when it entered handoff. */
CREATE TABLE "sla_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"first_response_minutes" integer,
	"next_response_minutes" integer,
	"resolution_minutes" integer,
	"business_hours_only" boolean DEFAULT true NOT NULL,
	"applies_to" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"priority" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sla_policies_workspace_idx" ON "sla_policies" ("workspace_id", "priority");
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_policy_id" text REFERENCES "sla_policies"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_started_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_first_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_next_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_resolution_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_replied_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_waiting_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_breaches" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
CREATE INDEX "conversations_sla_open_idx" ON "conversations" ("workspace_id") WHERE "sla_policy_id" IS NOT NULL AND "status" = 'handoff';
