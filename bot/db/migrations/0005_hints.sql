-- 0005_hints: the hints players asked for.
--
-- Why: each player may ask for a hint once per turn, and the hints are part of the game's
-- story, so they are kept with the game and exported.

-- One hint per turn of a game (``turn`` is the engine's turn counter): the moves suggested,
-- best first, as the text of their engine actions, one move per line.
CREATE TABLE hints (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    turn       INTEGER NOT NULL CHECK (turn >= 0),
    user_id    INTEGER NOT NULL,
    moves      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn)
);
