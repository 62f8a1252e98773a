-- The published rules offered whole as levels (docs/design/doubutsu-settai.md#settai-classic-the-rule-as-published,
-- docs/design/reversi-sontaku.md): `settai-classic` and `standard-classic` may be chosen like
-- any level, for the server and for a channel.
ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_reversi_level_check;
ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_reversi_level_check
    CHECK (reversi_level IN ('standard', 'highest', 'none', 'standard-classic'));
ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_doubutsu_level_check;
ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_doubutsu_level_check
    CHECK (doubutsu_level IN ('settai', 'strongest', 'weakest', 'settai-classic'));
ALTER TABLE channel_settings DROP CONSTRAINT channel_settings_reversi_level_check;
ALTER TABLE channel_settings ADD CONSTRAINT channel_settings_reversi_level_check
    CHECK (reversi_level IN ('standard', 'highest', 'none', 'standard-classic'));
ALTER TABLE channel_settings DROP CONSTRAINT channel_settings_doubutsu_level_check;
ALTER TABLE channel_settings ADD CONSTRAINT channel_settings_doubutsu_level_check
    CHECK (doubutsu_level IN ('settai', 'strongest', 'weakest', 'settai-classic'));
