CREATE TABLE "containers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"image" text NOT NULL,
	"container_id" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expect_stop_at" timestamp with time zone NOT NULL,
	"is_proxy" boolean DEFAULT false NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 0 NOT NULL,
	"public_ip" text,
	"public_port" integer,
	"game_id" integer,
	"challenge_id" integer,
	"participation_id" integer,
	"team_id" integer,
	"user_id" uuid,
	"is_test" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "test_container_id" uuid;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_participation_id_participations_id_fk" FOREIGN KEY ("participation_id") REFERENCES "public"."participations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "containers_expect_stop_at_idx" ON "containers" USING btree ("expect_stop_at");--> statement-breakpoint
CREATE INDEX "containers_participation_idx" ON "containers" USING btree ("participation_id");--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_test_container_id_containers_id_fk" FOREIGN KEY ("test_container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_instances" ADD CONSTRAINT "game_instances_container_id_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "game_instances_container_id_key" ON "game_instances" USING btree ("container_id");