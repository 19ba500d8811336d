ALTER TABLE "challenges" ADD COLUMN "source_key" varchar(255);--> statement-breakpoint
CREATE UNIQUE INDEX "challenges_game_id_source_key_idx" ON "challenges" USING btree ("game_id","source_key");