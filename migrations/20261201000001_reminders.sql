-- Issue 17: reminders for games waiting on a player, and the board message they link to.
-- The board message a game's players tap (the newest one posted); NULL before one is known.
ALTER TABLE games
    ADD COLUMN board_message_id BIGINT,
    -- When the one reminder of the current wait was sent, and the final notice before the idle
    -- limit closes the game; both cleared by every move, so each wait gets at most one of each,
    -- across restarts and processes.
    ADD COLUMN reminded_at TIMESTAMPTZ,
    ADD COLUMN final_notice_at TIMESTAMPTZ;

-- Hours without a move before the reminder (0: no reminders); 24 by default, NULL in a
-- channel means "as the server says".
ALTER TABLE guild_settings
    ADD COLUMN reminder_hours INTEGER NOT NULL DEFAULT 24 CHECK (reminder_hours BETWEEN 0 AND 8760);
ALTER TABLE channel_settings
    ADD COLUMN reminder_hours INTEGER CHECK (reminder_hours BETWEEN 0 AND 8760);

-- A player's own choices, whatever the server (only reminders so far).
CREATE TABLE player_settings (
    user_id     BIGINT PRIMARY KEY,
    reminders   BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
