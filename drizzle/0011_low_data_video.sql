CREATE TYPE "public"."transcode_status" AS ENUM('pending', 'running', 'ready', 'failed');--> statement-breakpoint
CREATE TABLE "video_transcodes" (
	"file_id" text PRIMARY KEY NOT NULL,
	"status" "transcode_status" DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"duration_seconds" integer,
	"renditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"poster_key" text,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "data_saver" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "video_transcodes" ADD CONSTRAINT "video_transcodes_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;