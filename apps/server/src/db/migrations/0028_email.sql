-- The email channel (docs/email.md): each assistant's configuration, the messages as received
-- (raw source, once per Message-ID and assistant), the email side of conversation messages, and
-- inbound attachments.
CREATE TABLE "email_configs" (
	"assistant_id" text PRIMARY KEY NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"address" text NOT NULL,
	"display_name" text NOT NULL,
	"inbound_mode" text NOT NULL,
	"imap_host" text,
	"imap_port" integer,
	"imap_secure" boolean,
	"imap_username" text,
	"imap_password_sealed" text,
	"imap_mailbox" text,
	"forward_token_sealed" text NOT NULL,
	"forward_token_hash" text NOT NULL,
	"smtp_host" text,
	"smtp_port" integer,
	"smtp_secure" boolean,
	"smtp_username" text,
	"smtp_password_sealed" text,
	"ai_replies" boolean DEFAULT true NOT NULL,
	"signature" text DEFAULT '' NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"enable_contact_matching" boolean DEFAULT true NOT NULL,
	"auto_create_contacts" boolean DEFAULT true NOT NULL,
	"status_state" text DEFAULT 'ok' NOT NULL,
	"status_message" text DEFAULT 'Not checked yet' NOT NULL,
	"status_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_configs_address_uq" ON "email_configs" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "email_configs_forward_token_uq" ON "email_configs" USING btree ("forward_token_hash");--> statement-breakpoint
CREATE INDEX "email_configs_workspace_idx" ON "email_configs" USING btree ("workspace_id");--> statement-breakpoint
CREATE TABLE "email_inbound" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"message_id_header" text NOT NULL,
	"source" text NOT NULL,
	"raw" bytea NOT NULL,
	"size" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"error" text,
	"message_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The raw source is stored as it came (no compression: it is read once, by the job).
ALTER TABLE "email_inbound" ALTER COLUMN "raw" SET STORAGE EXTERNAL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_inbound_message_uq" ON "email_inbound" USING btree ("assistant_id","message_id_header");--> statement-breakpoint
CREATE INDEX "email_inbound_due_idx" ON "email_inbound" USING btree ("received_at") WHERE state <> 'done';--> statement-breakpoint
CREATE TABLE "email_messages" (
	"message_id" text PRIMARY KEY NOT NULL REFERENCES "messages"("id") ON DELETE cascade,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"assistant_id" text NOT NULL REFERENCES "assistants"("id") ON DELETE cascade,
	"conversation_id" text NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
	"direction" text NOT NULL,
	"message_id_header" text NOT NULL,
	"in_reply_to" text,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"from_address" text NOT NULL,
	"from_name" text DEFAULT '' NOT NULL,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"html" text,
	"auth" jsonb,
	"marked" boolean DEFAULT false NOT NULL,
	"not_answered" text,
	"by_ai" boolean DEFAULT false NOT NULL,
	"delivery_state" text,
	"delivery_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"inbound_id" text REFERENCES "email_inbound"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_messages_thread_idx" ON "email_messages" USING btree ("assistant_id","message_id_header");--> statement-breakpoint
CREATE INDEX "email_messages_conversation_idx" ON "email_messages" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "email_messages_sender_idx" ON "email_messages" USING btree ("assistant_id","from_address","created_at");--> statement-breakpoint
CREATE INDEX "email_messages_due_idx" ON "email_messages" USING btree ("next_attempt_at") WHERE delivery_state = 'pending';--> statement-breakpoint
CREATE TABLE "email_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"message_id" text NOT NULL REFERENCES "messages"("id") ON DELETE cascade,
	"conversation_id" text NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
	"filename" text NOT NULL,
	"declared_type" text NOT NULL,
	"detected_type" text,
	"size" integer NOT NULL,
	"content" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_attachments_message_idx" ON "email_attachments" USING btree ("message_id");
