"""The rated league: openskill's Plackett-Luce ratings, kept per server and season.

A player is a person (their user id as text) or a computer player by name (``fast``,
``strong``), so that beating the computer counts. A rating's ordinal is mu - 3 sigma: a
newcomer starts near 0 and climbs as games confirm them. Ratings are updated once per rated
game as it finishes and can be rebuilt from the kept results in the order they were played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.game.rows import SeatResult
from bot.standings.store import Rating
from bot.standings.store import StandingsStore as Store

MODEL = PlackettLuce()
"""The rating model, with openskill's defaults (mu 25, sigma 25/3)."""


def player_key(result: SeatResult) -> str:
    """Who a seat's rating belongs to: a computer seated from the lobby by its name, a person
    by their user id."""
    if result.computer is not None and not result.handed_over:
        return result.computer
    return str(result.user_id)


def rate(results: Sequence[SeatResult], before: Mapping[str, Rating]) -> list[Rating]:
    """The ratings of a rated game's seats after it, from ``before`` (a player missing there
    starts fresh); ranks as the game's final standing, tied players sharing one."""
    keys = [player_key(r) for r in results]
    teams = []
    for key in keys:
        old = before.get(key)
        if old is None:
            teams.append([MODEL.rating(name=key)])
        else:
            teams.append([MODEL.rating(mu=old.mu, sigma=old.sigma, name=key)])
    rated = MODEL.rate(teams, ranks=[float(r.rank) for r in results])
    after = []
    for key, result, (new,) in zip(keys, results, rated, strict=True):
        old = before.get(key)
        ordinal = new.ordinal()
        after.append(
            Rating(
                player=key,
                name=result.name,
                mu=new.mu,
                sigma=new.sigma,
                ordinal=ordinal,
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + (result.rank == 1),
                change=ordinal - (old.ordinal if old else 0.0),
            )
        )
    return after


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What a rebuild did: how many rated games it replayed, and players it rated."""

    games: int
    players: int


async def update_ratings(store: Store, results: Sequence[SeatResult]) -> list[Rating]:
    """Rate one finished game's seats, if it was rated, and keep the new ratings."""
    if not results or not results[0].rated:
        return []
    guild_id, season = results[0].guild_id, results[0].season
    keys = [player_key(r) for r in results]
    before = {r.player: r for r in await store.ratings(guild_id, season, keys)}
    after = rate(results, before)
    await store.save_ratings(guild_id, season, after)
    return after


async def rebuild_ratings(store: Store) -> Rebuilt:
    """Drop every rating and compute them again from the kept rated results, game by game
    in the order they finished."""
    await store.clear_ratings()
    boards: dict[tuple[int, int], dict[str, Rating]] = {}
    games: dict[int, list[SeatResult]] = {}
    for result in await store.rated_results():
        games.setdefault(result.game_id, []).append(result)
    for seats in games.values():
        board = boards.setdefault((seats[0].guild_id, seats[0].season), {})
        for rating in rate(seats, board):
            board[rating.player] = rating
    for (guild_id, season), board in boards.items():
        await store.save_ratings(guild_id, season, list(board.values()))
    return Rebuilt(games=len(games), players=sum(len(b) for b in boards.values()))
