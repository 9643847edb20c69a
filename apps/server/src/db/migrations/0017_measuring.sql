/* Measuring the AI (docs/measuring.md): a reply's confidence and withheld draft, an assistant's minimum confidence, how the AI's part in a conversation settled, suggestions from the team's answers. */
ALTER TABLE "messages" ADD COLUMN "confidence" real;
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "withheld" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "assistants" ADD COLUMN "min_confidence" real DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "ai_resolution" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "ai_resolution_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "conversations_ai_resolution_idx" ON "conversations" ("workspace_id","ended_at") WHERE "ended_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "suggestions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"conversation_id" text REFERENCES "conversations"("id") ON DELETE set null,
	"question_message_id" text NOT NULL,
	"answer_message_id" text,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"curated_answer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "suggestions_assistant_idx" ON "suggestions" ("assistant_id","status","created_at" DESC,"id" DESC);
--> statement-breakpoint
/* One suggestion a question, however often its conversation is closed. */
CREATE UNIQUE INDEX "suggestions_question_idx" ON "suggestions" ("question_message_id");
