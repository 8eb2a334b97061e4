"""The results a game keeps as it finishes: each seat's figures, rated when the server's
league is on and every person in it joined; and the players' time away, which their turn
times leave out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.attendance.presence import Presence, presence_of
from bot.attendance.store import AttendanceStore
from bot.game.messages import Player
from bot.game.rows import GameRow, MoveRow, SeatResult
from bot.standings.results import may_be_rated, seat_results
from bot.standings.store import StandingsStore as Store
from engine import GameState


async def finishing_results(
    store: Store,
    game: GameRow,
    players: Sequence[Player],
    state: GameState,
    moves: Sequence[MoveRow],
    *,
    now: datetime,
) -> list[SeatResult]:
    """The results of a game finishing at ``now`` with ``state`` after ``moves``: rated when
    the server's league is on, the game may be rated and every person in it joined."""
    league = await store.league(game.guild_id)
    rated = league.enabled and may_be_rated(players)
    if rated:
        people = {p.user_id for p in players if p.computer is None}
        rated = await store.league_members(game.guild_id, people) == people
    return seat_results(
        game,
        players,
        state,
        moves,
        finished_at=now,
        rated=rated,
        season=league.season,
        presences=await presences(store.view(AttendanceStore), players),
    )


async def presences(store: AttendanceStore, players: Sequence[Player]) -> dict[int, Presence]:
    """The time away and quiet hours of a game's people, by user id: their turn times leave
    them out. Quiet hours are the ones set now (earlier settings are not kept)."""
    people = await store.people_of({p.user_id for p in players if p.user_id > 0})
    return {user_id: presence_of(person) for user_id, person in people.items()}
