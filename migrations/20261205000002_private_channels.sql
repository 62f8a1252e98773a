-- A game in a DM or group DM the app is not in (installed to a player's account): the bot
-- only answers interactions there, so the sweeps never post, edit or remind in its channel
-- (docs/design/private-channels.md).
ALTER TABLE games ADD COLUMN private_channel boolean NOT NULL DEFAULT false;
