-- A place's latest game, for telling why there is no game when the last one waited too long
-- (docs/design/private-channels.md#a-silent-close-told-later).
CREATE INDEX games_channel_latest ON games (channel_id, id DESC);
