-- 0008_round_scores: every player's total after each round of a finished game.
--
-- Why, and what each column means: see ../0008_round_scores.sql.
CREATE TABLE round_scores (
    game_id bigint  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round   integer NOT NULL CHECK (round >= 1),
    seat    integer NOT NULL CHECK (seat >= 0),
    total   integer NOT NULL,
    PRIMARY KEY (game_id, round, seat)
);
