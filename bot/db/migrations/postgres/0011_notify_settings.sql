-- 0011_notify_settings: how each person hears of their turns, in every game on every server.
--
-- Why, and what each column means: see ../0011_notify_settings.sql.
CREATE TABLE notify_settings (
    user_id        bigint  PRIMARY KEY,
    dm             integer NOT NULL DEFAULT 0 CHECK (dm IN (0, 1)),
    heads_up       integer NOT NULL DEFAULT 0 CHECK (heads_up IN (0, 1)),
    digest_hour    integer CHECK (digest_hour BETWEEN 0 AND 23),
    channel_ping   integer NOT NULL DEFAULT 1 CHECK (channel_ping IN (0, 1)),
    reminder_hours integer CHECK (reminder_hours BETWEEN 0 AND 720),
    digest_day     text,
    dms_refused_at timestamptz,
    refusal_told   integer NOT NULL DEFAULT 0 CHECK (refusal_told IN (0, 1)),
    updated_at     timestamptz NOT NULL
);

CREATE INDEX notify_settings_digests ON notify_settings (user_id) WHERE digest_hour IS NOT NULL;
