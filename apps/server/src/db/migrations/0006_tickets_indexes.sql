CREATE INDEX "tickets_workspace_status_idx" ON "tickets" USING btree ("workspace_id","status","created_at");--> statement-breakpoint
CREATE INDEX "tickets_contact_idx" ON "tickets" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "tickets_assignee_idx" ON "tickets" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "tickets_conversation_idx" ON "tickets" USING btree ("conversation_id");