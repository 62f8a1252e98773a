-- The servers the slash commands were registered to (DISCORD_GUILD_ID), so that a copy left on
-- a server is cleared once the id changes or is cleared: Discord keeps a server's copy until
-- the application overwrites it, and `/play` would show twice (docs/design/bot-reliability.md#where-the-commands-live).
-- A row is written before the commands go to its server and deleted once that server's copy is
-- cleared (or Discord says the bot is no longer there), so a start cut short leaves no copy unknown.
CREATE TABLE command_guilds (
    guild_id BIGINT PRIMARY KEY,
    registered_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
