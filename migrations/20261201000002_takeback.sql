-- Issue 17: take-backs (待った). A server or channel may let players take back their last move
-- (and the bot's reply); off by default, NULL in a channel means "as the server says".
ALTER TABLE guild_settings
    ADD COLUMN takeback BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE channel_settings
    ADD COLUMN takeback BOOLEAN;

-- How many times a game's player took a move back (shown by `/play stats`).
ALTER TABLE games
    ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0 CHECK (takebacks >= 0);
