DROP INDEX "flags_challenge_id_idx";--> statement-breakpoint
CREATE INDEX "flags_challenge_id_flag_idx" ON "flags" USING btree ("challenge_id","flag");--> statement-breakpoint
CREATE INDEX "game_instances_flag_id_idx" ON "game_instances" USING btree ("flag_id");