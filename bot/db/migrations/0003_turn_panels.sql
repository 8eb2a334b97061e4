-- 0003_turn_panels: the turn panel's draft choices, one row per game and player.
--
-- Why: a turn played by tapping goes through several presses (pair, place, rotation, token,
-- Confirm); the choices so far are kept here, not in the bot's memory, so that a restart in
-- the middle of a turn resumes at the same step. Nothing here is part of the game: a draft
-- becomes a move only through the move log, on Confirm.
--
-- turn:     the game's turn (state.turn) the draft is for; a draft of a passed turn is dead.
-- revision: the game's revision the draft was made on; a draft whose game changed is dead.
-- version:  goes up on every change, and the panel's buttons carry it, so a press on an
--           older copy of the panel (a double click) cannot act on what it no longer shows.
-- draft:    the choices as JSON text (opaque to the database).

CREATE TABLE panels (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    turn       INTEGER NOT NULL CHECK (turn >= 0),
    revision   INTEGER NOT NULL CHECK (revision >= 1),
    version    INTEGER NOT NULL CHECK (version >= 1),
    draft      TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
