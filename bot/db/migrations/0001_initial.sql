-- 0001_initial: the first schema — games, their seats, the append-only move log and the
-- outbox of Discord messages still to post.
--
-- Conventions every later migration keeps:
-- * No BEGIN/COMMIT here: the runner wraps each file in its own transaction and sets
--   PRAGMA user_version in that same transaction.
-- * Times are ISO-8601 text in UTC with microseconds ('2024-05-01T18:00:00.000000+00:00'),
--   written only by bot/store.py; the fixed width makes text order equal time order.
-- * Discord ids (snowflakes) are INTEGER: they fit in SQLite's signed 64 bits.
-- * Engine state, actions and outbox payloads are opaque text to the database.

-- AUTOINCREMENT so a game id is never reused: ids outlive rows in button custom_ids.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'ended')),
    host_id          INTEGER NOT NULL,
    cards            TEXT    NOT NULL,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    revision         INTEGER NOT NULL CHECK (revision >= 1),
    state            TEXT,
    reminder_hours   INTEGER NOT NULL DEFAULT 24 CHECK (reminder_hours >= 0),
    turn_started_at  TEXT,
    next_reminder_at TEXT,
    reminders_sent   INTEGER NOT NULL DEFAULT 0 CHECK (reminders_sent >= 0),
    lobby_message_id INTEGER
);

-- At most one open (lobby or active) game per channel; finished and ended games pile up freely.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');

CREATE INDEX games_due_reminders ON games (next_reminder_at)
    WHERE status = 'active';

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    user_id    INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The log is the game's record and its replay source: refuse edits at the lowest level.
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

-- payload: what the message says (text, mentions); snapshot: bulky data to re-render its
-- images, cleared once the message is sent.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    channel_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    snapshot   TEXT,
    created_at TEXT    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT,
    sent_at    TEXT,
    message_id INTEGER
);

CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;
