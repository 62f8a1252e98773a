-- A player's own choice of the coach's hints (docs/design/kind-coach.md#your-own-choice):
-- NULL follows the place where they play.
ALTER TABLE player_settings ADD COLUMN hints BOOLEAN;
