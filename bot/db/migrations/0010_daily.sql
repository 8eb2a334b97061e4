-- 0010_daily: the daily trek's attempts, the servers' daily channels and the daily posts made.
--
-- Why: one solo deal a day for everyone (engine/daily.py) is played as a game like any other
-- (a games row, in the member's direct messages or a private thread), and these tables say
-- which games are whose attempt of which day, and what the bot has posted about each day, so
-- that a restart neither counts an attempt twice nor posts a day's message again.
-- * daily_attempts: one row a daily game. day is the deal's date, 'YYYY-MM-DD' (UTC);
--   counted = 1 for the member's one attempt that counts that day (the unique index decides
--   between two at once), 0 for a practice replay after it.
-- * daily_channels: where a server's daily messages go. anchor_game_id is a games row of
--   status 'ended' with no seats, made when the channel is first named: the outbox's rows
--   belong to a game, and this one holds the server's daily posts, so that they go out
--   through the outbox in order, once, claimed by the process that owns the server.
-- * daily_posts: one row a message queued (kind 'morning' or 'board') for a server and day;
--   the key makes each go out at most once, whatever restarts. outbox_id names the row
--   without a foreign key: a deleted channel's unsent rows are dropped, this record stays.
CREATE TABLE daily_attempts (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    counted    INTEGER NOT NULL CHECK (counted IN (0, 1)),
    created_at TEXT    NOT NULL
);
CREATE UNIQUE INDEX daily_attempts_counted ON daily_attempts (user_id, day) WHERE counted = 1;
CREATE INDEX daily_attempts_day ON daily_attempts (day);

CREATE TABLE daily_channels (
    guild_id       INTEGER PRIMARY KEY,
    channel_id     INTEGER NOT NULL,
    anchor_game_id INTEGER NOT NULL REFERENCES games (id),
    set_by         INTEGER NOT NULL,
    set_at         TEXT    NOT NULL
);

CREATE TABLE daily_posts (
    guild_id  INTEGER NOT NULL,
    day       TEXT    NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('morning', 'board')),
    outbox_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, kind)
);
