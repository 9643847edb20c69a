CREATE TABLE "notification_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"email_off" text[] DEFAULT '{}'::text[] NOT NULL,
	"in_app_off" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_billing" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"stripe_state_at" timestamp with time zone,
	"period_end" timestamp with time zone,
	"pending_plan" text,
	"canceled_at" timestamp with time zone,
	"trial_reminder_for" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD CONSTRAINT "workspace_billing_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_billing_customer_uq" ON "workspace_billing" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE INDEX "workspace_billing_due_idx" ON "workspace_billing" USING btree ("period_end") WHERE pending_plan is not null or canceled_at is not null;--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE read_at is null;--> statement-breakpoint
/* Analytics (docs/analytics.md "Indexes"): written by hand, as drizzle's schema cannot say INCLUDE. */
CREATE INDEX "conversations_analytics_idx" ON "conversations" USING btree ("workspace_id","created_at") INCLUDE ("channel","handed_off_at","message_count");--> statement-breakpoint
CREATE INDEX "messages_ai_day_idx" ON "messages" USING btree ("workspace_id","created_at") WHERE role = 'assistant' AND status <> 'failed';--> statement-breakpoint
CREATE INDEX "messages_gap_idx" ON "messages" USING btree ("workspace_id","created_at") WHERE role = 'assistant' AND status <> 'failed' AND citations = '[]'::jsonb;--> statement-breakpoint
CREATE INDEX "widget_feedback_workspace_idx" ON "widget_feedback" USING btree ("workspace_id","created_at") INCLUDE ("rating");
