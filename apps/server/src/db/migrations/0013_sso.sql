CREATE TABLE "sso_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"default_role" text DEFAULT 'member' NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL,
	"issuer" text,
	"client_id" text,
	"client_secret_sealed" text,
	"oidc_metadata" jsonb,
	"metadata_url" text,
	"metadata_xml" text,
	"idp_entity_id" text,
	"idp_sso_url" text,
	"idp_certs" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_domains" (
	"connection_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone,
	CONSTRAINT "sso_domains_connection_id_domain_pk" PRIMARY KEY("connection_id","domain")
);
--> statement-breakpoint
CREATE TABLE "sso_flows" (
	"id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"browser_hash" text,
	"code_verifier" text,
	"nonce" text,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_seen_assertions" (
	"connection_id" text NOT NULL,
	"assertion_id" text NOT NULL,
	"not_on_or_after" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_seen_assertions_connection_id_assertion_id_pk" PRIMARY KEY("connection_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_connection_id_sso_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."sso_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_connection_id_sso_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."sso_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_seen_assertions" ADD CONSTRAINT "sso_seen_assertions_connection_id_sso_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."sso_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_connections_workspace_idx" ON "sso_connections" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_uq" ON "sso_domains" USING btree ("domain") WHERE verified_at is not null;--> statement-breakpoint
CREATE INDEX "sso_flows_expires_idx" ON "sso_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_seen_assertions_expiry_idx" ON "sso_seen_assertions" USING btree ("not_on_or_after");
