/* Analytics (docs/analytics.md "Indexes"; docs/performance.md "Analytics"): written by hand. `gap_question` is set by the chat engine on an AI reply that left a knowledge gap; it stays outside the Drizzle schema (only the raw insert of replies writes it). */
ALTER TABLE "messages" ADD COLUMN "gap_question" text;--> statement-breakpoint
/* Earlier replies: the same rule as features/analytics/gaps.ts, each with the customer's message before it. */
UPDATE "messages" a SET "gap_question" = q.question
  FROM (
    SELECT r.id, (
      SELECT left(rtrim(lower(regexp_replace(btrim(u.content), '[[:space:]]+', ' ', 'g')), ' ?!.'), 300)
        FROM "messages" u
       WHERE u.conversation_id = r.conversation_id AND u.role = 'user'
         AND (u.created_at, u.id) <= (r.created_at, r.id)
       ORDER BY u.created_at DESC, u.id DESC
       LIMIT 1) AS question
      FROM "messages" r
     WHERE r.role = 'assistant' AND r.status <> 'failed' AND r.citations = '[]'::jsonb
       AND NOT jsonb_path_exists(r.tool_calls, '$[*] ? (@.toolName != "search_knowledge")')
  ) q
 WHERE a.id = q.id AND q.question <> ''
   AND q.question !~ '^(hi|hello|hey|hiya|howdy|yo|good (morning|afternoon|evening|night)|thanks|thank you|thank you very much|thx|ty|cheers|ok|okay|great|cool|bye|goodbye|see you)( there| so much| again)?$';--> statement-breakpoint
CREATE INDEX "messages_gap_question_idx" ON "messages" USING btree ("workspace_id","created_at") INCLUDE ("gap_question") WHERE gap_question IS NOT NULL;--> statement-breakpoint
/* Replaced by messages_gap_question_idx. */
DROP INDEX IF EXISTS "messages_gap_idx";
