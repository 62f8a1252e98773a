-- The display name of the player who started a game, as the server showed it then: the board
-- images name the seats, also where no interaction is at hand (restart recovery, idle notices).
ALTER TABLE games ADD COLUMN human_name TEXT NOT NULL DEFAULT '';
