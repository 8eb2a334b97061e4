"""The standings as texts: a member's statistics, the server's figures and the leaderboard.

Pure functions over the kept results (:class:`~bot.game.rows.SeatResult`) and ratings: short,
phone-sized answers, unit-tested on hand-made rows.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.markdown import escape_markdown
from bot.game.messages import count
from bot.game.rows import SeatResult
from bot.standings.store import Rating, Tablemate
from engine import Wildlife

HEAD_TO_HEAD = 3
"""How many of the members played most with are shown head to head."""

MOST_ACTIVE = 5
"""How many of the most active players the server's figures name."""


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, losses and draws against one opponent (by rank in the games played together)."""

    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games played together."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's figures over their finished games (``seats`` theirs, oldest first)."""

    seats: tuple[SeatResult, ...]
    solo: tuple[SeatResult, ...]
    per_card: dict[str, float]
    per_species: dict[str, float]
    turn_median: float | None
    head_to_head: tuple[Record, ...]

    @property
    def games(self) -> int:
        """Games with others played."""
        return len(self.seats)

    @property
    def wins(self) -> int:
        """Games with others won (shared first places included)."""
        return sum(r.rank == 1 for r in self.seats)

    @property
    def scores(self) -> list[int]:
        """Every game's score, solo included, oldest first."""
        return [r.score for r in sorted((*self.seats, *self.solo), key=_when)]

    @property
    def best(self) -> SeatResult | None:
        """The highest-scoring game (solo included), the earliest of equals."""
        every = sorted((*self.seats, *self.solo), key=_when)
        return max(every, key=lambda r: r.score, default=None)


def _when(result: SeatResult) -> tuple[object, int]:
    return (result.finished_at, result.game_id)


def member_stats(
    results: Sequence[SeatResult], tablemates: Sequence[Tablemate], user_id: int
) -> MemberStats:
    """A member's figures from their seats and every seat of the games they sat at (see
    :meth:`~bot.stores.Store.member_results` and :meth:`~bot.stores.Store.tablemates`)."""
    games: dict[int, list[Tablemate]] = defaultdict(list)
    for mate in tablemates:
        games[mate.game_id].append(mate)
    mine = [r for r in results if r.user_id == user_id and r.person]
    seats = tuple(r for r in mine if r.players > 1)
    solo = tuple(r for r in mine if r.players == 1)
    cards: dict[str, list[int]] = defaultdict(list)
    species: dict[str, list[int]] = defaultdict(list)
    for result in mine:
        letters = result.cards if len(result.cards) == len(Wildlife) else None
        for index, wildlife in enumerate(Wildlife):
            points = result.wildlife.get(wildlife.value, 0)
            species[wildlife.value].append(points)
            if letters is not None:
                cards[f"{wildlife.value} {letters[index]}"].append(points)
    turns = [s for r in mine for s in r.turn_seconds]
    records: dict[str, Record] = {}
    for result in seats:
        for other in games[result.game_id]:
            if other.seat == result.seat:
                continue
            key = str(other.user_id) if other.person else f"computer {other.computer}"
            old = records.get(key, Record(other.name))
            records[key] = Record(
                other.name,
                old.wins + (result.rank < other.rank),
                old.losses + (result.rank > other.rank),
                old.draws + (result.rank == other.rank),
            )
    most = sorted(records.values(), key=lambda r: -r.games)[:HEAD_TO_HEAD]
    return MemberStats(
        seats=seats,
        solo=solo,
        per_card={k: statistics.fmean(v) for k, v in sorted(cards.items())},
        per_species={k: statistics.fmean(v) for k, v in species.items()},
        turn_median=statistics.median(turns) if turns else None,
        head_to_head=tuple(most),
    )


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def duration(seconds: float) -> str:
    """A turn's time, shortly: ``45s``, ``12m``, ``3h 5m``, ``2d 4h``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return f"{int(seconds)}s"
    if minutes < 60:
        return f"{minutes}m"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours}h {minutes}m"
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h"


def stats_message(name: str, stats: MemberStats, *, here: bool = True) -> str:
    """The answer to ``/cascadia stats``: the member's figures in a few short lines."""
    where = "in this server" if here else "everywhere"
    shown = escape_markdown(name)
    every = (*stats.seats, *stats.solo)
    if not every:
        return f"**{shown}** has no finished games {where} yet."
    lines = [
        f"**{shown}** {where}: {_games(stats.games)}, {stats.wins} won"
        + (f"; {_games(len(stats.solo))} solo" if stats.solo else ""),
    ]
    scores = stats.scores
    best = stats.best
    if best is not None:
        lines.append(
            f"Score: average {statistics.fmean(scores):.1f}, best {best.score}"
            f" (game {best.game_id}, cards {best.cards})"
        )
    if stats.seats:
        placing = statistics.fmean(r.rank for r in stats.seats)
        lines.append(f"Average placing: {placing:.2f}")
    if stats.per_card:
        top = sorted(stats.per_card.items(), key=lambda kv: -kv[1])[:3]
        lines.append("Best cards: " + ", ".join(f"{k} {v:.1f}" for k, v in top))
    if stats.per_species:
        lines.append(
            "Per species: " + ", ".join(f"{k} {v:.1f}" for k, v in stats.per_species.items())
        )
    tokens = sum(r.tokens_used for r in every)
    corridor = max(r.corridor for r in every)
    turn = "" if stats.turn_median is None else f"median turn {duration(stats.turn_median)}, "
    used = count(tokens, "nature token")
    lines.append(f"{turn.capitalize()}{used} used, longest corridor {corridor}")
    for record in stats.head_to_head:
        lines.append(
            f"vs {escape_markdown(record.name)}: {record.wins}-{record.losses}"
            + (f"-{record.draws}" if record.draws else "")
        )
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ServerStats:
    """A server's figures over its finished games."""

    games: int
    active: tuple[tuple[str, int], ...]
    winning_average: float | None
    highest: SeatResult | None
    computers: dict[str, tuple[int, int]]
    """Per computer player: games played with others, games won."""


def server_stats(results: Sequence[SeatResult]) -> ServerStats:
    """The server's figures from every seat of its finished games."""
    by_game: dict[int, list[SeatResult]] = defaultdict(list)
    for result in results:
        by_game[result.game_id].append(result)
    played: Counter[int] = Counter()
    names: dict[int, str] = {}
    computers: dict[str, tuple[int, int]] = {}
    for result in results:
        if result.person:
            played[result.user_id] += 1
            names[result.user_id] = result.name
        elif result.computer is not None and result.players > 1:
            games, wins = computers.get(result.computer, (0, 0))
            computers[result.computer] = (games + 1, wins + (result.rank == 1))
    winning = [max(r.score for r in seats) for seats in by_game.values() if seats[0].players > 1]
    highest = max(results, key=lambda r: (r.score, -r.game_id), default=None)
    return ServerStats(
        games=len(by_game),
        active=tuple((names[u], n) for u, n in played.most_common(MOST_ACTIVE)),
        winning_average=statistics.fmean(winning) if winning else None,
        highest=highest,
        computers=dict(sorted(computers.items())),
    )


def server_message(stats: ServerStats, *, link: str | None = None) -> str:
    """The answer to ``/cascadia server``; ``link`` leads to the highest-scoring game."""
    if stats.games == 0:
        return "No finished games in this server yet."
    lines = [f"This server: {_games(stats.games)} finished"]
    if stats.active:
        lines.append(
            "Most active: "
            + ", ".join(f"{escape_markdown(n)} ({count})" for n, count in stats.active)
        )
    if stats.winning_average is not None:
        lines.append(f"Average winning score: {stats.winning_average:.1f}")
    if stats.highest is not None:
        where = f" {link}" if link else ""
        lines.append(
            f"Highest score: {stats.highest.score} by {escape_markdown(stats.highest.name)}"
            f" (game {stats.highest.game_id}){where}"
        )
    for computer, (games, wins) in stats.computers.items():
        lines.append(f"Computer {computer}: {wins} won of {_games(games)}")
    return "\n".join(lines)


def leaderboard_message(
    board: Sequence[Rating],
    *,
    season: int,
    caller: str,
    place: int | None,
    own: Rating | None,
) -> str:
    """The answer to ``/cascadia leaderboard``: place, name, ordinal, games, wins and the last
    change, top first, then the caller's own place if it is not among them."""
    if not board:
        return f"Season {season} has no rated games yet."
    lines = [f"**Season {season}** (rating = mu - 3 sigma)"]
    for number, rating in enumerate(board, start=1):
        lines.append(_rating_line(number, rating, mine=rating.player == caller))
    if own is not None and place is not None and place > len(board):
        lines.append("...")
        lines.append(_rating_line(place, own, mine=True))
    return "\n".join(lines)


def _rating_line(place: int, rating: Rating, *, mine: bool) -> str:
    name = escape_markdown(rating.name)
    line = (
        f"{place}. {name} {rating.ordinal:.1f} ({rating.change:+.1f}),"
        f" {_games(rating.games)}, {rating.wins} won"
    )
    return f"**{line}**" if mine else line
