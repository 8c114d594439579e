CREATE TABLE "message_notice_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"delay_minutes" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_notice_settings" ADD CONSTRAINT "message_notice_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;