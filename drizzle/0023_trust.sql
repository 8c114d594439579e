CREATE TYPE "public"."quiz_corrections" AS ENUM('after_last_attempt', 'after_submit', 'after_date', 'never');--> statement-breakpoint
CREATE TABLE "message_notice_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"delay_minutes" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "draw_count" integer;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "corrections" "quiz_corrections" DEFAULT 'after_last_attempt' NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "corrections_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_notice_settings" ADD CONSTRAINT "message_notice_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Written by hand: existing quizzes keep their meaning (corrections hidden stay hidden; a quiz that
-- counts for a certificate shows them after the last attempt or a pass; practice after each submit).
UPDATE "quizzes" SET "corrections" = CASE WHEN NOT "show_corrections" THEN 'never'::"quiz_corrections" WHEN "required" THEN 'after_last_attempt'::"quiz_corrections" ELSE 'after_submit'::"quiz_corrections" END;--> statement-breakpoint
ALTER TABLE "quizzes" DROP COLUMN "show_corrections";--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_draw_count_positive" CHECK ("quizzes"."draw_count" is null or "quizzes"."draw_count" >= 1);--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_corrections_date" CHECK ("quizzes"."corrections" <> 'after_date' or "quizzes"."corrections_at" is not null);--> statement-breakpoint
-- Written by hand: final exams seeded before pools existed draw 6 of their 8 questions, shuffled.
UPDATE "quizzes" SET "draw_count" = 6, "shuffle_questions" = true WHERE "required" AND "draw_count" IS NULL AND "questions"->0->>'id' LIKE 'q_seed_%' AND jsonb_array_length("questions") > 6;
