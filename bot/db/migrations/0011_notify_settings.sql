-- 0011_notify_settings: how each person hears of their turns, in every game on every server.
--
-- Why: one ping in the channel does not suit everyone. A person may ask for a direct message
-- at each of their turns (dm), a short one when they are next (heads_up), one digest a day of
-- the games waiting for them (digest_hour, in the zone of their quiet hours, else UTC), no
-- mention in the channel (channel_ping = 0), and reminders at their own interval
-- (reminder_hours; 0: none; NULL: the game's). A missing row: the defaults, as before.
-- * digest_day: the person's own day (YYYY-MM-DD) of the last digest, so that a day has one
--   digest however often the bot restarts.
-- * dms_refused_at: Discord refused a direct message to them (their privacy settings); no
--   more are tried until they turn dm on again. refusal_told = 1 once they were told so.
CREATE TABLE notify_settings (
    user_id        INTEGER PRIMARY KEY,
    dm             INTEGER NOT NULL DEFAULT 0 CHECK (dm IN (0, 1)),
    heads_up       INTEGER NOT NULL DEFAULT 0 CHECK (heads_up IN (0, 1)),
    digest_hour    INTEGER CHECK (digest_hour BETWEEN 0 AND 23),
    channel_ping   INTEGER NOT NULL DEFAULT 1 CHECK (channel_ping IN (0, 1)),
    reminder_hours INTEGER CHECK (reminder_hours BETWEEN 0 AND 720),
    digest_day     TEXT,
    dms_refused_at TEXT,
    refusal_told   INTEGER NOT NULL DEFAULT 0 CHECK (refusal_told IN (0, 1)),
    updated_at     TEXT    NOT NULL
);

CREATE INDEX notify_settings_digests ON notify_settings (user_id) WHERE digest_hour IS NOT NULL;
