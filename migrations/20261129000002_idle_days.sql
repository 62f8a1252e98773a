-- How many days a game may wait for a move before it is closed (per server; 14 by default).
ALTER TABLE guild_settings
    ADD COLUMN idle_days INTEGER NOT NULL DEFAULT 14 CHECK (idle_days BETWEEN 1 AND 365);

-- The sweep looks for active games by age.
CREATE INDEX games_active_updated ON games (updated_at) WHERE status = 'active';
