-- The dashboard's language of each account (docs/languages.md "Dashboard"): one of the supported
-- languages (packages/contract/src/languages.ts), or NULL to follow the browser's.
ALTER TABLE "users" ADD COLUMN "language" text;
