-- The players' data on request (docs/design/players-data.md).
-- Servers that removed the bot: their settings and games are deleted once the grace period has
-- passed since `left_at`, unless the bot is added back first (the row is then removed).
CREATE TABLE guild_departures (
    guild_id    BIGINT PRIMARY KEY,
    left_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Deleting a server's games finds them by server. Moves get no index by player: a player's
-- moves are looked up only when they ask to see or erase their data, rarely enough that a scan
-- costs less than an index written on every move.
CREATE INDEX games_guild ON games (guild_id);
