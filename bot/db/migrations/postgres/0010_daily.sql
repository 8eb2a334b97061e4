-- 0010_daily: the daily trek's attempts, the servers' daily channels and the daily posts made.
--
-- Why, and what each column means: see ../0010_daily.sql.
CREATE TABLE daily_attempts (
    game_id    bigint  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    bigint  NOT NULL,
    day        text    NOT NULL,
    counted    integer NOT NULL CHECK (counted IN (0, 1)),
    created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX daily_attempts_counted ON daily_attempts (user_id, day) WHERE counted = 1;
CREATE INDEX daily_attempts_day ON daily_attempts (day);

CREATE TABLE daily_channels (
    guild_id       bigint  PRIMARY KEY,
    channel_id     bigint  NOT NULL,
    anchor_game_id bigint  NOT NULL REFERENCES games (id),
    set_by         bigint  NOT NULL,
    set_at         timestamptz NOT NULL
);

CREATE TABLE daily_posts (
    guild_id  bigint  NOT NULL,
    day       text    NOT NULL,
    kind      text    NOT NULL CHECK (kind IN ('morning', 'board')),
    outbox_id bigint  NOT NULL,
    PRIMARY KEY (guild_id, day, kind)
);
