CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "enrolments_activated_idx" ON "enrolments" USING btree ("activated_at");--> statement-breakpoint
CREATE INDEX "enrolments_completed_idx" ON "enrolments" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "lesson_progress_updated_at_idx" ON "lesson_progress" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "lesson_progress_completed_at_idx" ON "lesson_progress" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "payments_completed_idx" ON "payments" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "payments_refunded_idx" ON "payments" USING btree ("refunded_at");--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "quiz_attempts_submitted_idx" ON "quiz_attempts" USING btree ("submitted_at");