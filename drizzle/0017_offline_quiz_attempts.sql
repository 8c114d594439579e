ALTER TABLE "quiz_attempts" ADD COLUMN "client_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "quiz_attempts_client_idx" ON "quiz_attempts" USING btree ("client_id");