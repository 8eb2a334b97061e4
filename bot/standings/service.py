"""The standings: keeping a finished game's results (rated or not), the backfill of games
finished before results were kept, and the answers of ``/cascadia stats``, ``server``,
``league`` and ``leaderboard``."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.attendance.store import AttendanceStore
from bot.game.errors import BotError, DamagedLog
from bot.game.kernel import players_of
from bot.game.markdown import jump_url
from bot.game.records import UNREADABLE, read_state
from bot.game.rows import GameStatus
from bot.standings import stats as texts
from bot.standings.finishing import presences
from bot.standings.results import seat_results
from bot.standings.store import StandingsStore as Store
from i18n import N_, _

log = logging.getLogger(__name__)

LEAGUE_ACTIONS = ("on", "off", "join", "leave", "season")
"""The ``action`` choices of ``/cascadia league``."""

MANAGED = frozenset({"on", "off", "season"})
"""The league actions that need Manage Server."""


async def backfill_results(store: Store, *, batch: int = 200) -> int:
    """Keep the results of every finished game that has none yet (finished before results
    were kept), from its final state and move log; such games are not rated. Returns how
    many games it filled in."""
    filled = 0
    while game_ids := await store.games_without_results(batch):
        seats = await store.seats_of(game_ids)
        before = filled
        for game_id in game_ids:
            game = await store.get_game(game_id)
            if game is None or game.state is None or game.status is not GameStatus.FINISHED:
                continue
            try:
                state = read_state(game.state)
                moves = await store.moves(game_id)
            except (*UNREADABLE, DamagedLog) as error:
                # The game stays without results; a damaged state refuses it everywhere else.
                why = f"{type(error).__name__}: {error}"
                log.warning("game %d: no results filled in (%s)", game_id, why)
                continue
            players = players_of(seats.get(game_id, []))
            finished_at = moves[-1].created_at if moves else game.updated_at
            results = seat_results(
                game,
                players,
                state,
                moves,
                finished_at=finished_at,
                rated=False,
                season=1,
                presences=await presences(store.view(AttendanceStore), players),
            )
            await store.record_results(results)
            filled += 1
        if len(game_ids) < batch or filled == before:
            break
    return filled


class NotManager(BotError):
    """A league setting was asked for by someone without Manage Server."""

    def __init__(self, action: str) -> None:
        super().__init__(
            N_("Only someone with Manage Server can use `/cascadia league {action}`."),
            action=action,
        )


class NoSeason(BotError):
    """A leaderboard of a season that has not started."""

    def __init__(self, season: int, current: int) -> None:
        super().__init__(
            N_("There is no season {season}: this server's league is in season {current}."),
            season=season,
            current=current,
        )


CHART_GAMES = 2
"""The fewest games whose scores ``stats`` draws as bars."""


@dataclass(frozen=True, slots=True)
class StatsAnswer:
    """The answer to ``/cascadia stats``: its text and the scores its picture shows."""

    text: str
    scores: tuple[int, ...]

    @property
    def chart(self) -> bool:
        """Whether the scores make a picture worth showing: bars to compare, from two games
        on (one game's bar says no more than its score in the text)."""
        return len(self.scores) >= CHART_GAMES


async def stats_answer(store: Store, guild_id: int | None, user_id: int, name: str) -> StatsAnswer:
    """A member's figures in this server's finished games (``guild_id`` ``None``: in every
    server, which only the member may ask for)."""
    results = await store.member_results(user_id, guild_id=guild_id)
    mates = await store.tablemates(user_id, guild_id=guild_id)
    figures = texts.member_stats(results, mates, user_id)
    text = texts.stats_message(name, figures, here=guild_id is not None)
    return StatsAnswer(text, tuple(figures.scores))


class OthersEverywhere(BotError):
    """Someone asked for another member's figures across servers."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "A member's figures across servers are theirs to ask for:"
                " `/cascadia stats everywhere:True` shows your own."
            )
        )


def stats_scope(guild_id: int | None, caller: int, user_id: int, *, everywhere: bool) -> int | None:
    """The server whose games ``/cascadia stats`` counts, ``None`` for every server: asked
    with ``everywhere``, or outside a server, and then only for the caller's own figures."""
    if everywhere or guild_id is None:
        if user_id != caller:
            raise OthersEverywhere()
        return None
    return guild_id


async def server_answer(store: Store, guild_id: int) -> str:
    """The server's figures, with a link to the channel of its highest-scoring game."""
    figures = texts.server_stats(await store.guild_results(guild_id))
    link = None
    if figures.highest is not None:
        game = await store.get_game(figures.highest.game_id)
        if game is not None:
            link = jump_url(game.guild_id, game.channel_id)
    return texts.server_message(figures, link=link)


async def league_answer(
    store: Store, guild_id: int, user_id: int, action: str, *, can_manage: bool
) -> str:
    """Do ``/cascadia league action`` and say what it did; :class:`NotManager` for a setting
    without Manage Server (nothing changes)."""
    if action not in LEAGUE_ACTIONS:
        raise BotError(
            N_("The league actions are {actions}, not {action}."),
            actions=", ".join(LEAGUE_ACTIONS),
            action=repr(action),
        )
    if action in MANAGED and not can_manage:
        raise NotManager(action)
    if action in ("on", "off"):
        league = await store.set_league(guild_id, enabled=action == "on")
        if league.enabled:
            return _(
                "The league is on (season {season}). A game is rated when everyone"
                " in it joined with `/cascadia league join`.",
                season=league.season,
            )
        return _("The league is off: no game is rated. The leaderboards stay readable.")
    if action == "season":
        league = await store.set_league(guild_id, new_season=True)
        return _(
            "Season {old} is closed; season {new} starts now."
            " `/cascadia leaderboard season:{old}` still shows the old one.",
            old=league.season - 1,
            new=league.season,
        )
    league = await store.league(guild_id)
    changed = await store.set_member(guild_id, user_id, joined=action == "join")
    if action == "join":
        if league.enabled:
            return _("You joined the league.") if changed else _("You are in the league already.")
        if changed:
            return _(
                "You joined the league. It is off until someone with Manage Server turns it on."
            )
        return _(
            "You are in the league already. It is off until someone with Manage Server turns it on."
        )
    return _("You left the league.") if changed else _("You were not in the league.")


async def leaderboard_answer(
    store: Store, guild_id: int, user_id: int, season: int | None = None
) -> str:
    """A season's leaderboard (the current one by default): the top 20 and the caller."""
    league = await store.league(guild_id)
    season = league.season if season is None else season
    if not 1 <= season <= league.season:
        raise NoSeason(season, league.season)
    board = await store.leaderboard(guild_id, season)
    me = str(user_id)
    place = await store.rating_place(guild_id, season, me)
    own = await store.ratings(guild_id, season, [me])
    return texts.leaderboard_message(
        board, season=season, caller=me, place=place, own=own[0] if own else None
    )
