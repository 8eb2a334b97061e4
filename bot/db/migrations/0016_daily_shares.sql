-- 0016_daily_shares: the daily trek attempts shared in a server's daily channel.
--
-- Why: the **Share** button on a finished attempt posts one spoiler-free line in the daily
-- channel, once: a second press, a restart or a second process must not post it again, and a
-- second press answers with a link to the line posted.
-- * daily_shares: one row a shared attempt. outbox_id is the line's outbox row (under the
--   daily channel's anchor game), named without a foreign key as daily_posts does: its message
--   id, once posted, makes the link.
CREATE TABLE daily_shares (
    game_id   BIGINT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    outbox_id BIGINT NOT NULL
);
