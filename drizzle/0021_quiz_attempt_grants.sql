CREATE TABLE "quiz_attempt_grants" (
	"quiz_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"extra_attempts" integer NOT NULL,
	"granted_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_attempt_grants_quiz_id_user_id_pk" PRIMARY KEY("quiz_id","user_id"),
	CONSTRAINT "quiz_attempt_grants_extra_range" CHECK ("quiz_attempt_grants"."extra_attempts" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "quiz_attempt_grants" ADD CONSTRAINT "quiz_attempt_grants_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempt_grants" ADD CONSTRAINT "quiz_attempt_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempt_grants" ADD CONSTRAINT "quiz_attempt_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;