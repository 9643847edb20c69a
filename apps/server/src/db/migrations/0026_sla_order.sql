/* The inbox by the soonest SLA due time (docs/sla.md "In the inbox"): those with no clock last. */
CREATE INDEX "conversations_sla_due_idx" ON "conversations" ("workspace_id", (coalesce(least("sla_first_due_at", "sla_next_due_at", "sla_resolution_due_at"), 'infinity'::timestamptz)), "id");
