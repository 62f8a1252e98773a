-- Games, their moves, and per-server settings.
-- Discord snowflakes are u64; they are stored as BIGINT (bit-identical cast), the usual practice.

CREATE TABLE guild_settings (
    guild_id        BIGINT PRIMARY KEY,
    reversi_level   TEXT NOT NULL DEFAULT 'standard'
                    CHECK (reversi_level IN ('standard', 'highest', 'none')),
    doubutsu_level  TEXT NOT NULL DEFAULT 'settai'
                    CHECK (doubutsu_level IN ('settai', 'strongest', 'weakest')),
    commentary      BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE games (
    id              BIGSERIAL PRIMARY KEY,
    guild_id        BIGINT,                       -- NULL in direct messages
    channel_id      BIGINT NOT NULL,              -- a channel or a thread
    kind            TEXT NOT NULL CHECK (kind IN ('reversi', 'doubutsu')),
    level           TEXT NOT NULL,
    human_id        BIGINT NOT NULL,              -- the player who started the game
    human_side      SMALLINT NOT NULL CHECK (human_side IN (0, 1)),  -- 0 moves first
    position        TEXT NOT NULL,                -- games::Game::encode
    ply             INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'resigned', 'expired')),
    result          TEXT CHECK (result IN ('human', 'bot', 'draw')),
    final_score     TEXT,                         -- e.g. '40-24' (first-second) when scored
    version         INTEGER NOT NULL DEFAULT 0,   -- bumped by every state change
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at     TIMESTAMPTZ,
    CHECK ((status = 'active') = (result IS NULL))
);

-- At most one active game per channel (or thread), enforced by the database.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_human ON games (human_id);

CREATE TABLE moves (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply >= 1),
    notation    TEXT NOT NULL,
    actor       TEXT NOT NULL CHECK (actor IN ('human', 'bot')),
    user_id     BIGINT,                          -- the Discord user who moved; NULL for the bot and forced passes
    played_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, ply)
);
