-- 0015_achievements: what each person earned in each finished game. Why, and what each column
-- means: see ../0015_achievements.sql. Only finished_at differs: a timestamptz here.
CREATE TABLE achievements (
    game_id     bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     bigint NOT NULL CHECK (user_id > 0),
    achievement text   NOT NULL,
    guild_id    bigint NOT NULL,
    finished_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, user_id, achievement)
);
CREATE INDEX achievements_member ON achievements (user_id, achievement, finished_at);
CREATE INDEX achievements_guild ON achievements (guild_id, achievement, user_id);
