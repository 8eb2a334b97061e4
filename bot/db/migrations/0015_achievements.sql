-- 0015_achievements: what each person earned in each finished game.
--
-- Why: the final message names what someone earned for the first time (and who earned it first
-- on the server), `/cascadia stats` lists a person's achievements with the game each was first
-- earned in, and `/cascadia server` counts the members who earned each.
-- * achievements: one row per person, finished game and achievement earned in it (the final
--   commit writes them with the last move; `cascadia-bot ratings --rebuild` counts them again
--   from the stored final states). Computer seats are not kept. guild_id and finished_at are
--   the game's, kept here so that both reads below use one index without the games table.
-- * achievements_member: a person's first game per achievement (earliest finished_at).
-- * achievements_guild: a server's members per achievement.
CREATE TABLE achievements (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL CHECK (user_id > 0),
    achievement TEXT   NOT NULL,
    guild_id    BIGINT NOT NULL,
    finished_at TEXT   NOT NULL,
    PRIMARY KEY (game_id, user_id, achievement)
);
CREATE INDEX achievements_member ON achievements (user_id, achievement, finished_at);
CREATE INDEX achievements_guild ON achievements (guild_id, achievement, user_id);
