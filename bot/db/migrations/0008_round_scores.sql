-- 0008_round_scores: every player's total after each round of a finished game.
--
-- Why: the archive (`/cascadia history`), the score chart and statistics read a game's course
-- round by round; replaying the moves for that costs a second of CPU a game, so the totals
-- are counted once, when the game ends (or the first time an older game is asked for), and
-- kept. A row is one seat's total after one round, counted as if the game ended then.
CREATE TABLE round_scores (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round   INTEGER NOT NULL CHECK (round >= 1),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    total   INTEGER NOT NULL,
    PRIMARY KEY (game_id, round, seat)
);
