-- The rules the starter of a game chose for it where nobody manages settings (the bot's DM, a
-- DM or group DM): take-backs and commentary. NULL in servers, where the place's settings
-- apply (docs/design/private-channels.md#settings).
ALTER TABLE games
    ADD COLUMN house_takeback boolean,
    ADD COLUMN house_commentary boolean,
    ADD CONSTRAINT games_house_rules_whole CHECK ((house_takeback IS NULL) = (house_commentary IS NULL));
