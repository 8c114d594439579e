CREATE TABLE "learner_activity_days" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "learner_activity_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "learner_activity_days" ADD CONSTRAINT "learner_activity_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learner_activity_days_day_idx" ON "learner_activity_days" USING btree ("day");--> statement-breakpoint
-- Every moment a learner did something lands in its (learner, day) row, whoever wrote it (the app,
-- the seeds, an import): the first and the last moment of the day are enough to tell exactly
-- whether the learner was active on either side of a period's edge, since a day holds at most
-- one edge of the analytics' periods and spans (each a day long or more).
CREATE OR REPLACE FUNCTION campus_record_learner_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'lesson_progress' THEN
    INSERT INTO learner_activity_days AS known (user_id, day, first_at, last_at)
    SELECT e.user_id, (m.at AT TIME ZONE 'UTC')::date, min(m.at), max(m.at)
    FROM new_rows n JOIN enrolments e ON e.id = n.enrolment_id
    CROSS JOIN LATERAL (VALUES (n.updated_at), (n.completed_at)) AS m(at)
    WHERE m.at IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET first_at = least(known.first_at, excluded.first_at), last_at = greatest(known.last_at, excluded.last_at);
  ELSE
    INSERT INTO learner_activity_days AS known (user_id, day, first_at, last_at)
    SELECT n.user_id, (n.submitted_at AT TIME ZONE 'UTC')::date, min(n.submitted_at), max(n.submitted_at)
    FROM new_rows n WHERE n.submitted_at IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET first_at = least(known.first_at, excluded.first_at), last_at = greatest(known.last_at, excluded.last_at);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER lesson_progress_inserted_activity AFTER INSERT ON "lesson_progress" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campus_record_learner_activity();
--> statement-breakpoint
CREATE TRIGGER lesson_progress_updated_activity AFTER UPDATE ON "lesson_progress" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campus_record_learner_activity();
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_inserted_activity AFTER INSERT ON "quiz_attempts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campus_record_learner_activity();
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_updated_activity AFTER UPDATE ON "quiz_attempts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campus_record_learner_activity();
--> statement-breakpoint
-- What happened before this table: the moments lesson_progress and quiz_attempts still hold.
INSERT INTO learner_activity_days (user_id, day, first_at, last_at)
SELECT user_id, (at AT TIME ZONE 'UTC')::date, min(at), max(at) FROM (
  SELECT e.user_id, lp.updated_at AS at FROM lesson_progress lp JOIN enrolments e ON e.id = lp.enrolment_id
  UNION ALL SELECT e.user_id, lp.completed_at FROM lesson_progress lp JOIN enrolments e ON e.id = lp.enrolment_id WHERE lp.completed_at IS NOT NULL
  UNION ALL SELECT user_id, submitted_at FROM quiz_attempts WHERE submitted_at IS NOT NULL
) moments
GROUP BY 1, 2;
