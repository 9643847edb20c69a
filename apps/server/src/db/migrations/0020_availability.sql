/* A member's availability for conversations (docs/workspaces.md "Availability"). */
ALTER TABLE "memberships" ADD COLUMN "availability" text DEFAULT 'offline' NOT NULL;
