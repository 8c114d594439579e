CREATE TABLE "course_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"rating" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hidden_at" timestamp with time zone,
	"hidden_by_id" text,
	CONSTRAINT "course_reviews_rating_range" CHECK ("course_reviews"."rating" between 1 and 5),
	CONSTRAINT "course_reviews_body_length" CHECK (char_length("course_reviews"."body") between 10 and 1000)
);
--> statement-breakpoint
ALTER TABLE "courses" RENAME COLUMN "student_count" TO "baseline_student_count";--> statement-breakpoint
ALTER TABLE "courses" RENAME COLUMN "rating" TO "baseline_rating";--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "baseline_review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "course_reviews" ADD CONSTRAINT "course_reviews_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_reviews" ADD CONSTRAINT "course_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_reviews" ADD CONSTRAINT "course_reviews_hidden_by_id_users_id_fk" FOREIGN KEY ("hidden_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "course_reviews_course_user_idx" ON "course_reviews" USING btree ("course_id","user_id");--> statement-breakpoint
CREATE INDEX "course_reviews_course_idx" ON "course_reviews" USING btree ("course_id","created_at");--> statement-breakpoint
-- The institute's ratings were published with a review count equal to its learner count (the
-- specification's cards): that count is the imported baseline of the reviews.
UPDATE "courses" SET "baseline_review_count" = "baseline_student_count" WHERE "baseline_rating" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_baseline_rating" CHECK (("courses"."baseline_review_count" = 0 or "courses"."baseline_rating" is not null) and "courses"."baseline_review_count" >= 0 and ("courses"."baseline_rating" is null or "courses"."baseline_rating" between 1 and 5));--> statement-breakpoint
-- The cached catalogue shows the ratings: drop it when a review changes (drizzle/0004).
CREATE TRIGGER course_reviews_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_reviews" FOR EACH STATEMENT EXECUTE FUNCTION campus_notify_table_change();
