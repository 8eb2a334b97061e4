-- 0009_standings: every finished game's result per seat, and the servers' rated leagues.
--
-- Why, and what each column means: see ../0009_standings.sql.
CREATE TABLE results (
    game_id       bigint  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          integer NOT NULL,
    guild_id      bigint  NOT NULL,
    user_id       bigint  NOT NULL,
    name          text    NOT NULL,
    computer      text,
    handed_over   integer NOT NULL,
    players       integer NOT NULL,
    cards         text    NOT NULL,
    score         integer NOT NULL,
    rank          integer NOT NULL,
    nature_tokens integer NOT NULL,
    tokens_used   integer NOT NULL,
    wildlife      text    NOT NULL,
    habitats      text    NOT NULL,
    corridor      integer NOT NULL,
    turn_seconds  text    NOT NULL,
    rated         integer NOT NULL,
    season        integer NOT NULL,
    finished_at   timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_member ON results (user_id, guild_id, finished_at);
CREATE INDEX results_guild ON results (guild_id, finished_at);

CREATE TABLE leagues (
    guild_id bigint  PRIMARY KEY,
    enabled  integer NOT NULL,
    season   integer NOT NULL
);

CREATE TABLE league_members (
    guild_id bigint  NOT NULL,
    user_id  bigint  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE ratings (
    guild_id bigint  NOT NULL,
    season   integer NOT NULL,
    player   text    NOT NULL,
    name     text    NOT NULL,
    mu       double precision NOT NULL,
    sigma    double precision NOT NULL,
    ordinal  double precision NOT NULL,
    games    integer NOT NULL,
    wins     integer NOT NULL,
    change   double precision NOT NULL,
    PRIMARY KEY (guild_id, season, player)
);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal);
