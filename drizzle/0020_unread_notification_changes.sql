-- Every process keeps each signed-in user's count of unread notifications (the bell's badge) for a
-- few seconds (app/.server/notifications/unread-cache.ts). This trigger tells every process, through
-- NOTIFY campus_notifications (delivered on commit) with the user's id, when that count may have
-- changed: a notification added, read or unread, or deleted, whoever writes it.
CREATE OR REPLACE FUNCTION campus_notify_unread_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('campus_notifications', '*');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('campus_notifications', OLD.user_id);
  ELSE
    PERFORM pg_notify('campus_notifications', NEW.user_id);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('campus_notifications', OLD.user_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_unread_changed AFTER INSERT OR DELETE OR UPDATE OF read_at, user_id ON "notifications" FOR EACH ROW EXECUTE FUNCTION campus_notify_unread_change();
--> statement-breakpoint
CREATE TRIGGER notifications_truncated AFTER TRUNCATE ON "notifications" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_unread_change();
