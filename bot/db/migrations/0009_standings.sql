-- 0009_standings: every finished game's result per seat, and the servers' rated leagues.
--
-- Why: the statistics and the leaderboards read these rows, written once when a game ends
-- (or, for games finished before, once from their replayed moves), instead of replaying
-- every game per command.
-- * results: one row a seat. user_id is the seat's player (negative for a computer seated
--   from the lobby); computer names the computer player that played the seat at the end,
--   handed_over = 1 when a person left their seat to it. wildlife and habitats are JSON
--   objects (points per species, largest corridor per habitat); turn_seconds a JSON list of
--   the seconds each turn the player chose took. rank 1 is first, tied players share it.
-- * leagues: a server's league, on or off, and its current season (1 first).
-- * league_members: who joined a server's league.
-- * ratings: a player's rating in a season; player is a user id or a computer's name.
CREATE TABLE results (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    computer      TEXT,
    handed_over   INTEGER NOT NULL,
    players       INTEGER NOT NULL,
    cards         TEXT    NOT NULL,
    score         INTEGER NOT NULL,
    rank          INTEGER NOT NULL,
    nature_tokens INTEGER NOT NULL,
    tokens_used   INTEGER NOT NULL,
    wildlife      TEXT    NOT NULL,
    habitats      TEXT    NOT NULL,
    corridor      INTEGER NOT NULL,
    turn_seconds  TEXT    NOT NULL,
    rated         INTEGER NOT NULL,
    season        INTEGER NOT NULL,
    finished_at   TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_member ON results (user_id, guild_id, finished_at);
CREATE INDEX results_guild ON results (guild_id, finished_at);

CREATE TABLE leagues (
    guild_id INTEGER PRIMARY KEY,
    enabled  INTEGER NOT NULL,
    season   INTEGER NOT NULL
);

CREATE TABLE league_members (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    player   TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    change   REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, player)
);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal);
