-- 0004_absence: turn deadlines and votes to skip, time away, quiet hours, computer seats.
--
-- Why: a game over days stalls when one player disappears, and pings at night make people
-- mute the channel. A game may now give each turn a deadline; once it has passed, the other
-- players vote to skip the turn (the computer plays it). Each person may be away for a while
-- (no reminders, their deadline clock stops) and may keep quiet hours (no pings then; one
-- short ping when they end, if it is still their turn).

-- Hours a turn may take before the other players may vote to skip it; 0: no deadline.
ALTER TABLE games ADD COLUMN deadline_hours INTEGER NOT NULL DEFAULT 0
    CHECK (deadline_hours >= 0);

-- The turn message came during the player's quiet hours without a ping: one short ping is
-- due at this time (NULL: nothing owed). Each move sets it afresh.
ALTER TABLE games ADD COLUMN ping_due_at TEXT;

-- Who chose a logged move when it was not its player: 'vote' (skipped after a vote), 'host'
-- (skipped by the host), 'computer' (a seat handed to the computer). NULL: the player.
ALTER TABLE moves ADD COLUMN played_for TEXT
    CHECK (played_for IS NULL OR played_for IN ('vote', 'host', 'computer'));

-- The computer player that plays this seat for good (such as 'fast'); NULL: its person.
ALTER TABLE seats ADD COLUMN computer TEXT;

-- Settings of a Discord user, across every server and game. A missing row: no quiet hours.
CREATE TABLE people (
    user_id    INTEGER PRIMARY KEY,
    quiet_from INTEGER CHECK (quiet_from BETWEEN 0 AND 23),
    quiet_to   INTEGER CHECK (quiet_to BETWEEN 0 AND 23),
    quiet_zone TEXT,
    updated_at TEXT    NOT NULL,
    CHECK ((quiet_from IS NULL) = (quiet_to IS NULL) AND (quiet_from IS NULL) = (quiet_zone IS NULL))
);

-- Periods of time away. Kept after they end: a turn's deadline skips every period that
-- overlapped it. Clearing time away early moves ends_at to that moment.
CREATE TABLE away_periods (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id   INTEGER NOT NULL,
    starts_at TEXT    NOT NULL,
    ends_at   TEXT    NOT NULL CHECK (ends_at >= starts_at),
    note      TEXT
);

CREATE INDEX away_periods_by_user ON away_periods (user_id, ends_at);

-- A vote to skip the turn ``turn`` (the engine's turn counter) of a game, opened once when
-- that turn's deadline passed; it is over as soon as the game has moved past that turn.
CREATE TABLE skip_polls (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    turn       INTEGER NOT NULL CHECK (turn >= 0),
    user_id    INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn)
);

CREATE TABLE skip_votes (
    game_id    INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    voter_id   INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn, voter_id),
    FOREIGN KEY (game_id, turn) REFERENCES skip_polls (game_id, turn)
);
