-- 0005_hints: the hints players asked for.
--
-- Why, and what each column means: see ../0005_hints.sql.

CREATE TABLE hints (
    game_id    bigint      NOT NULL REFERENCES games (id),
    turn       integer     NOT NULL CHECK (turn >= 0),
    user_id    bigint      NOT NULL,
    moves      text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, turn)
);
