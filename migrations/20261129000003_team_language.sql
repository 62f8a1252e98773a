-- Family team mode (anyone in the channel may move in a game) and a server-wide language that
-- overrides each player's Discord locale ('auto' follows the locale).
ALTER TABLE guild_settings
    ADD COLUMN team_play BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN language TEXT NOT NULL DEFAULT 'auto' CHECK (language IN ('auto', 'en', 'ja'));
