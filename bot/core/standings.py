"""Keeping the standings: a finished game's results (rated or not) and the backfill of games
finished before results were kept."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.core.messages import Player
from bot.core.names import seat_names
from bot.core.records import read_state
from bot.core.results import may_be_rated, seat_results
from bot.store import GameRow, GameStatus, MoveRow, Seat, SeatResult, Store
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
        game, players, state, moves, finished_at=now, rated=rated, season=league.season
    )


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
            moves = await store.moves(game_id)
            finished_at = moves[-1].created_at if moves else game.updated_at
            results = seat_results(
                game,
                _players(seats.get(game_id, [])),
                read_state(game.state),
                moves,
                finished_at=finished_at,
                rated=False,
                season=1,
            )
            await store.record_results(results)
            filled += 1
        if len(game_ids) < batch or filled == before:
            break
    return filled


def _players(seats: Sequence[Seat]) -> list[Player]:
    names = seat_names([s.name for s in seats])
    return [Player(s.user_id, n, computer=s.computer) for s, n in zip(seats, names, strict=True)]
