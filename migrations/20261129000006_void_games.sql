-- A stored game that cannot be trusted (its position does not read back, or its move list does
-- not lead to it) is closed as 'void': kept for inspection, never played on, not in the stats.
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('active', 'finished', 'resigned', 'expired', 'void'));
