CREATE TYPE "public"."quiz_corrections" AS ENUM('after_last_attempt', 'after_submit', 'after_date', 'never');--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "draw_count" integer;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "corrections" "quiz_corrections" DEFAULT 'after_last_attempt' NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "corrections_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quizzes" DROP COLUMN "show_corrections";--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_draw_count_positive" CHECK ("quizzes"."draw_count" is null or "quizzes"."draw_count" >= 1);--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_corrections_date" CHECK ("quizzes"."corrections" <> 'after_date' or "quizzes"."corrections_at" is not null);