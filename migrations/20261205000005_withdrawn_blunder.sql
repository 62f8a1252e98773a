-- Whether the game's player took back a move that lost at once while another did not: the
-- record no longer shows that blunder, and `settai` must still meet the player as one who
-- does not yet see captures (docs/design/kind-coach.md#take-backs-and-the-careless-sign).
ALTER TABLE games ADD COLUMN withdrew_blunder boolean NOT NULL DEFAULT false;
