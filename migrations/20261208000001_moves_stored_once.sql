-- A game stored once (docs/design/storage.md#one-record-of-the-moves): its moves live in `moves`
-- only. The game's text keeps its position and, for a doubutsu game set up elsewhere, its start
-- (`Game::encode`: `position` or `position;start`), where a doubutsu game's held its whole move
-- list too (`position;moves` or `position;moves;start`).
--
-- A version gate, not two phases (docs/design/storage.md#upgrading-past-it): the column is
-- renamed, so that every statement of the previous version that reads or writes a game's text
-- names a column that no longer exists and fails. Such a process, still running while this
-- one starts, answers "try again" and changes nothing until it is replaced: it never reads the
-- new text, finds it corrupt and closes a live game. One started after this migration does not
-- start (its migrator does not know this migration). `bot_to_move`, generated from the text,
-- follows the rename: its doubutsu side to move is still the first field's second word.
ALTER TABLE games RENAME COLUMN position TO position_and_start;

-- Every doubutsu row of the format before: its position (the first field) and its start (the
-- third, when there is one); the move list between them goes, `moves` holds it. A text of
-- another shape (a corrupt row) is left as it is, to be found corrupt as before.
UPDATE games
SET position_and_start = split_part(position_and_start, ';', 1)
    || CASE WHEN split_part(position_and_start, ';', 3) <> '' THEN ';' || split_part(position_and_start, ';', 3)
            ELSE '' END
WHERE kind = 'doubutsu' AND position_and_start ~ '^[^;]*;[^;]*(;[^;]*)?$';
