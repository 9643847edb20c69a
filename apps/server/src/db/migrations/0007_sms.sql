CREATE TABLE "sms_configs" (
	"assistant_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"account_sid" text NOT NULL,
	"auth_token_sealed" text NOT NULL,
	"phone_number" text NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"max_message_length" integer DEFAULT 1600 NOT NULL,
	"enable_contact_matching" boolean DEFAULT true NOT NULL,
	"auto_create_contacts" boolean DEFAULT true NOT NULL,
	"session_timeout_minutes" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_inbound" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"assistant_id" text NOT NULL,
	"provider_sid" text NOT NULL,
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"public_base" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"conversation_id" text,
	"message_id" text,
	"reply_message_id" text,
	"reservation" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_outbound" (
	"message_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"assistant_id" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"status_callback" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider_sid" text,
	"delivery_status" text,
	"error_code" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"assistant_id" text NOT NULL,
	"conversation_id" text,
	"contact_id" text,
	"phone_number" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sms_status_events" (
	"id" text PRIMARY KEY NOT NULL,
	"assistant_id" text NOT NULL,
	"provider_sid" text NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_configs" ADD CONSTRAINT "sms_configs_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_configs" ADD CONSTRAINT "sms_configs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_inbound" ADD CONSTRAINT "sms_inbound_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_inbound" ADD CONSTRAINT "sms_inbound_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbound" ADD CONSTRAINT "sms_outbound_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbound" ADD CONSTRAINT "sms_outbound_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbound" ADD CONSTRAINT "sms_outbound_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_sessions" ADD CONSTRAINT "sms_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_sessions" ADD CONSTRAINT "sms_sessions_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_sessions" ADD CONSTRAINT "sms_sessions_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_sessions" ADD CONSTRAINT "sms_sessions_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_status_events" ADD CONSTRAINT "sms_status_events_assistant_id_assistants_id_fk" FOREIGN KEY ("assistant_id") REFERENCES "public"."assistants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_configs_phone_uq" ON "sms_configs" USING btree ("phone_number");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_inbound_provider_uq" ON "sms_inbound" USING btree ("assistant_id","provider_sid");--> statement-breakpoint
CREATE INDEX "sms_inbound_open_idx" ON "sms_inbound" USING btree ("assistant_id","from_number","received_at","id") WHERE state <> 'done';--> statement-breakpoint
CREATE INDEX "sms_inbound_due_idx" ON "sms_inbound" USING btree ("received_at") WHERE state <> 'done';--> statement-breakpoint
CREATE UNIQUE INDEX "sms_outbound_provider_uq" ON "sms_outbound" USING btree ("assistant_id","provider_sid");--> statement-breakpoint
CREATE INDEX "sms_outbound_due_idx" ON "sms_outbound" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "sms_sessions_active_uq" ON "sms_sessions" USING btree ("assistant_id","phone_number") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "sms_sessions_assistant_idx" ON "sms_sessions" USING btree ("assistant_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sms_sessions_idle_idx" ON "sms_sessions" USING btree ("last_message_at") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "sms_sessions_conversation_idx" ON "sms_sessions" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "sms_status_events_sid_idx" ON "sms_status_events" USING btree ("assistant_id","provider_sid");