-- Every process keeps in memory a few rarely changing reads (the institute, categories, levels,
-- the published catalogue, the about page) and the sessions it resolved recently. These triggers
-- tell every process, through NOTIFY (delivered on commit), when such rows change, whoever writes
-- them (our code, Better Auth, an operator in psql). See app/.server/cache and app/.server/auth/session-cache.ts.
CREATE OR REPLACE FUNCTION campus_notify_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('campus_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campus_notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('campus_sessions', 'user:' || OLD.id);
  ELSE
    PERFORM pg_notify('campus_sessions', 'session:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER institute_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "institute" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER categories_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER levels_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "levels" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER courses_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "courses" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER lessons_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lessons" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER files_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "files" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER institute_highlights_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "institute_highlights" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER team_members_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER quotes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "quotes" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION campus_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION campus_notify_session_change();
