/*
 * The per-sender limit on the AI's email replies (docs/email.md "Not answered") counts the
 * AI's replies to one address in the last hour; without an index of the reply's address that count
 * read every email of the channel, once per message received. The sender index it replaces was
 * read by no query.
 */
DROP INDEX IF EXISTS "email_messages_sender_idx";--> statement-breakpoint
CREATE INDEX "email_messages_ai_reply_idx" ON "email_messages" USING btree ("assistant_id",(("to"->0)->>'address'),"created_at") WHERE "by_ai";
