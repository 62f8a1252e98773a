-- Per-channel overrides of a server's settings. NULL means "as the server says"; a thread
-- follows its own overrides first, then its parent channel's, then the server's.
CREATE TABLE channel_settings (
    channel_id      BIGINT PRIMARY KEY,
    guild_id        BIGINT NOT NULL,
    reversi_level   TEXT CHECK (reversi_level IN ('standard', 'highest', 'none')),
    doubutsu_level  TEXT CHECK (doubutsu_level IN ('settai', 'strongest', 'weakest')),
    commentary      BOOLEAN,
    idle_days       INTEGER CHECK (idle_days BETWEEN 1 AND 365),
    team_play       BOOLEAN,
    language        TEXT CHECK (language IN ('auto', 'en', 'ja')),
    level_choice    BOOLEAN,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Whether players may choose the level themselves when they start a game.
ALTER TABLE guild_settings ADD COLUMN level_choice BOOLEAN NOT NULL DEFAULT FALSE;

-- For a game in a thread: the channel the thread hangs from (its settings apply there too).
ALTER TABLE games ADD COLUMN parent_id BIGINT;
