CREATE TABLE "course_learner_counts" (
	"course_id" integer PRIMARY KEY NOT NULL,
	"learners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_learner_counts" ADD CONSTRAINT "course_learner_counts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The learners enrolled here, counted once from the enrolments; courses.student_count goes back to
-- the figure imported before the platform (it had been incremented in place until now).
INSERT INTO "course_learner_counts" ("course_id", "learners")
SELECT "course_id", count(*) FROM "enrolments" WHERE "status" IN ('active', 'completed', 'paused') GROUP BY "course_id";
--> statement-breakpoint
UPDATE "courses" SET "student_count" = greatest("student_count" - "counts"."learners", 0)
FROM "course_learner_counts" AS "counts" WHERE "counts"."course_id" = "courses"."id";
--> statement-breakpoint
-- The cached catalogue shows these counts: drop it when they change (drizzle/0004).
CREATE TRIGGER course_learner_counts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_learner_counts" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
