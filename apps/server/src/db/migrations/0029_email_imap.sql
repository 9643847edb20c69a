-- The IMAP watcher's state per email channel (docs/email.md "IMAP"): which mailbox the UIDs
-- belong to, its UIDVALIDITY, the last UID taken, and the lease that lets one process at a time
-- watch the mailbox (renewed by the holder's heartbeat; another process takes it once it expires).
CREATE TABLE "email_imap_state" (
	"assistant_id" text PRIMARY KEY NOT NULL REFERENCES "email_configs"("assistant_id") ON DELETE cascade,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"mailbox_key" text,
	"uid_validity" bigint,
	"last_uid" bigint,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_imap_state_workspace_idx" ON "email_imap_state" USING btree ("workspace_id");
