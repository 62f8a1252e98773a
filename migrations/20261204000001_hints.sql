-- The coach's hints for young players (docs/design/kind-coach.md): NULL follows the server,
-- then the default (on).
ALTER TABLE guild_settings ADD COLUMN hints BOOLEAN;
ALTER TABLE channel_settings ADD COLUMN hints BOOLEAN;
