-- docs/languages.md "Widget": the workspace's default language (the widget's language when the
-- visitor's is not supported) and the widget configuration's own texts per language.
ALTER TABLE "workspaces" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "widget_configs" ADD COLUMN "strings" jsonb DEFAULT '{}'::jsonb NOT NULL;
