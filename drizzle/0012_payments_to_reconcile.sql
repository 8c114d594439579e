ALTER TYPE "public"."payment_status" ADD VALUE 'to_reconcile';--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reconcile_reason" text;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" DROP COLUMN "customer_name";