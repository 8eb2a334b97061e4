-- 0012_packed_moves: a finished game's move log packed into one row after a week.
--
-- Why: issue 23's retention target. A finished game's log was one row a move (53 on average,
-- with their primary key index); once nothing has changed in the game for a week, the hourly
-- pass writes the whole log as one packed row here and deletes the move rows (the state text of
-- the game row is stored zlib-compressed then, in the same column). The log is still the game's
-- record, kept for good and never edited: only its form changes.
-- * moves: how many moves the packed log holds (counted without unpacking it).
-- * packed: the log in a versioned format (see bot/store/packing.py).
CREATE TABLE packed_moves (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    moves   INTEGER NOT NULL CHECK (moves >= 0),
    packed  BLOB    NOT NULL
);

-- A game's move rows may go once its packed log holds them; they are still never edited.
DROP TRIGGER moves_no_delete;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
WHEN NOT EXISTS (SELECT 1 FROM packed_moves p WHERE p.game_id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
