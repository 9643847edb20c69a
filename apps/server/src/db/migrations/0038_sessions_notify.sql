/* Every process keeps the live sessions it looked up for a few seconds (features/auth/session-cache.ts); a session deleted or changed anywhere (sign-out, another session's password change, the user deleted) tells every process at commit, with the user's id, so none of them serves it again (docs/performance.md "Chat capacity"). NOTIFY folds the same payload in one transaction: a user's fifty sessions deleted together notify once. */
CREATE OR REPLACE FUNCTION parley_sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_sessions', OLD.user_id);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_notify ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_notify AFTER DELETE OR UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION parley_sessions_notify();
