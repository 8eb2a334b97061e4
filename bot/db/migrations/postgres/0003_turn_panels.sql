-- 0003_turn_panels: the turn panel's draft choices, one row per game and player.
--
-- Why, and what each column means: see ../0003_turn_panels.sql.

CREATE TABLE panels (
    game_id    bigint      NOT NULL REFERENCES games (id),
    user_id    bigint      NOT NULL,
    turn       integer     NOT NULL CHECK (turn >= 0),
    revision   integer     NOT NULL CHECK (revision >= 1),
    version    integer     NOT NULL CHECK (version >= 1),
    draft      text        NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
