/* The conversation's language (docs/languages.md "Conversations"): detected from the customer's messages, null until one tells; the inbox filters by it. */
ALTER TABLE "conversations" ADD COLUMN "language" text;
--> statement-breakpoint
CREATE INDEX "conversations_inbox_language_idx" ON "conversations" USING btree ("workspace_id", "language", "last_message_at" DESC NULLS LAST, "id" DESC NULLS LAST);
