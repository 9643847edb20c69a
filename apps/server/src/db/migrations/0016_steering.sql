/* Steering an assistant (docs/steering.md): guidance rules, curated answers, tests and their runs; an AI reply's outcome; why a conversation was handed over. */
CREATE TABLE "guidance_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"triggers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "guidance_rules_assistant_idx" ON "guidance_rules" ("assistant_id","created_at","id");
--> statement-breakpoint
CREATE TABLE "curated_answers" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "curated_answers_assistant_idx" ON "curated_answers" ("assistant_id","created_at","id");
--> statement-breakpoint
CREATE TABLE "assistant_tests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"turns" jsonb NOT NULL,
	"expect" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "assistant_tests_assistant_idx" ON "assistant_tests" ("assistant_id","created_at","id");
--> statement-breakpoint
CREATE TABLE "test_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"status" text DEFAULT 'queued' NOT NULL,
	"trigger" text NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"passed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "test_runs_assistant_idx" ON "test_runs" ("assistant_id","started_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE INDEX "test_runs_due_idx" ON "test_runs" ("status","run_after");
--> statement-breakpoint
/* At most one run waiting per assistant (a burst of changes shares it) and one playing. */
CREATE UNIQUE INDEX "test_runs_one_queued_idx" ON "test_runs" ("assistant_id") WHERE "status" = 'queued';
--> statement-breakpoint
CREATE UNIQUE INDEX "test_runs_one_running_idx" ON "test_runs" ("assistant_id") WHERE "status" = 'running';
--> statement-breakpoint
ALTER TABLE "assistants" ADD COLUMN "steering_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "outcome" text;
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "curated_answer_id" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "handoff_reason" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "handoff_rule_id" text;
