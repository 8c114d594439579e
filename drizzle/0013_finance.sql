CREATE TYPE "public"."payout_status" AS ENUM('pending', 'processing', 'paid', 'failed');--> statement-breakpoint
CREATE TABLE "commission_payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"instructor_id" text NOT NULL,
	"period" text NOT NULL,
	"amount" integer NOT NULL,
	"channel" text NOT NULL,
	"status" "payout_status" DEFAULT 'pending' NOT NULL,
	"manual_reference" text,
	"provider_reference" text,
	"failure_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "commission_payouts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "commission_payouts_period" CHECK ("commission_payouts"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "commission_payouts_amount" CHECK ("commission_payouts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "finance_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"generated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instructor_commission_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"instructor_id" text NOT NULL,
	"rate_percent" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"set_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instructor_commission_rates_range" CHECK ("instructor_commission_rates"."rate_percent" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "commission_payouts" ADD CONSTRAINT "commission_payouts_instructor_id_users_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_payouts" ADD CONSTRAINT "commission_payouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_reports" ADD CONSTRAINT "finance_reports_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instructor_commission_rates" ADD CONSTRAINT "instructor_commission_rates_instructor_id_users_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instructor_commission_rates" ADD CONSTRAINT "instructor_commission_rates_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commission_payouts_live_idx" ON "commission_payouts" USING btree ("instructor_id","period") WHERE "commission_payouts"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "commission_payouts_status_idx" ON "commission_payouts" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "finance_reports_created_idx" ON "finance_reports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "instructor_commission_rates_idx" ON "instructor_commission_rates" USING btree ("instructor_id","effective_from");