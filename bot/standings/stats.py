"""The standings as texts: a member's statistics, the server's figures and the leaderboard.

Pure functions over the kept results (:class:`~bot.game.rows.SeatResult`) and ratings: short,
phone-sized answers, unit-tested on hand-made rows.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from babel.numbers import format_decimal

from bot.game.markdown import escape_markdown
from bot.game.rows import SeatResult
from bot.standings.store import Rating, Tablemate
from engine import Wildlife
from i18n import _, _n, babel_locale, reader
from render.words import wildlife_word

HEAD_TO_HEAD = 3
"""How many of the members played most with are shown head to head."""

MOST_ACTIVE = 5
"""How many of the most active players the server's figures name."""


def decimal(value: float, places: int = 1, *, sign: bool = False) -> str:
    """``value`` with ``places`` decimals as the reader writes numbers (``93.0``, ``93,0``);
    with ``sign``, a plus before a positive value (a rating's change)."""
    digits = "#,##0" + ("." + "0" * places if places else "")
    pattern = f"+{digits};-{digits}" if sign else digits
    return format_decimal(value, format=pattern, locale=babel_locale(reader()))


def species_name(wildlife: str) -> str:
    """A species (its value, ``bear``) by the word the reader's edition gives it."""
    return wildlife_word(Wildlife(wildlife))


def card_name(card: str) -> str:
    """A scoring card (``bear A``) as the reader's edition names it: ``Bär A``."""
    wildlife, letter = card.split(" ", 1)
    return f"{species_name(wildlife)} {letter}"


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
    return _n("{n} game", "{n} games", n)


def _won(n: int) -> str:
    return _n("{n} won", "{n} won", n)


def duration(seconds: float) -> str:
    """A turn's time, shortly: ``45s``, ``12m``, ``3h 5m``, ``2d 4h``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("{seconds}s", seconds=int(seconds))
    if minutes < 60:
        return _("{minutes}m", minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return _("{hours}h {minutes}m", hours=hours, minutes=minutes)
    days, hours = divmod(hours, 24)
    return _("{days}d {hours}h", days=days, hours=hours)


def _member_head(name: str, stats: MemberStats, *, here: bool) -> str:
    """The first line of ``stats``: where, games with others, wins and solo games."""
    games, won = _games(stats.games), _won(stats.wins)
    if stats.solo:
        solo = _games(len(stats.solo))
        if here:
            return _(
                "**{name}** in this server: {games}, {won}; {solo} solo",
                name=name,
                games=games,
                won=won,
                solo=solo,
            )
        return _(
            "**{name}** everywhere: {games}, {won}; {solo} solo",
            name=name,
            games=games,
            won=won,
            solo=solo,
        )
    if here:
        return _("**{name}** in this server: {games}, {won}", name=name, games=games, won=won)
    return _("**{name}** everywhere: {games}, {won}", name=name, games=games, won=won)


def stats_message(name: str, stats: MemberStats, *, here: bool = True) -> str:
    """The answer to ``/cascadia stats``: the member's figures in a few short lines."""
    shown = escape_markdown(name)
    every = (*stats.seats, *stats.solo)
    if not every:
        if here:
            return _("**{name}** has no finished games in this server yet.", name=shown)
        return _("**{name}** has no finished games anywhere yet.", name=shown)
    lines = [_member_head(shown, stats, here=here)]
    scores = stats.scores
    best = stats.best
    if best is not None:
        lines.append(
            _(
                "Score: average {average}, best {best} (game {game}, cards {cards})",
                average=decimal(statistics.fmean(scores)),
                best=best.score,
                game=best.game_id,
                cards=best.cards,
            )
        )
    if stats.seats:
        placing = statistics.fmean(r.rank for r in stats.seats)
        lines.append(_("Average placing: {placing}", placing=decimal(placing, 2)))
    if stats.per_card:
        top = sorted(stats.per_card.items(), key=lambda kv: -kv[1])[:3]
        cards = ", ".join(f"{card_name(k)} {decimal(v)}" for k, v in top)
        lines.append(_("Best cards: {cards}", cards=cards))
    if stats.per_species:
        species = ", ".join(f"{species_name(k)} {decimal(v)}" for k, v in stats.per_species.items())
        lines.append(_("Per species: {species}", species=species))
    tokens = sum(r.tokens_used for r in every)
    corridor = max(r.corridor for r in every)
    if stats.turn_median is None:
        lines.append(
            _n(
                "{n} nature token used, longest corridor {corridor}",
                "{n} nature tokens used, longest corridor {corridor}",
                tokens,
                corridor=corridor,
            )
        )
    else:
        lines.append(
            _n(
                "Median turn {turn}, {n} nature token used, longest corridor {corridor}",
                "Median turn {turn}, {n} nature tokens used, longest corridor {corridor}",
                tokens,
                turn=duration(stats.turn_median),
                corridor=corridor,
            )
        )
    for record in stats.head_to_head:
        score = f"{record.wins}-{record.losses}" + (f"-{record.draws}" if record.draws else "")
        lines.append(_("vs {name}: {record}", name=escape_markdown(record.name), record=score))
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
        return _("No finished games in this server yet.")
    lines = [_n("This server: {n} game finished", "This server: {n} games finished", stats.games)]
    if stats.active:
        players = ", ".join(f"{escape_markdown(n)} ({count})" for n, count in stats.active)
        lines.append(_("Most active: {players}", players=players))
    if stats.winning_average is not None:
        average = decimal(stats.winning_average)
        lines.append(_("Average winning score: {average}", average=average))
    if stats.highest is not None:
        fields = {
            "score": stats.highest.score,
            "name": escape_markdown(stats.highest.name),
            "game": stats.highest.game_id,
        }
        if link:
            lines.append(
                _("Highest score: {score} by {name} (game {game}) {link}", link=link, **fields)
            )
        else:
            lines.append(_("Highest score: {score} by {name} (game {game})", **fields))
    for computer, (games, wins) in stats.computers.items():
        lines.append(
            _n(
                "Computer {computer}: {n} won of {games}",
                "Computer {computer}: {n} won of {games}",
                wins,
                computer=computer,
                games=_games(games),
            )
        )
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
        return _("Season {season} has no rated games yet.", season=season)
    lines = [_("**Season {season}** (rating = mu - 3 sigma)", season=season)]
    for number, rating in enumerate(board, start=1):
        lines.append(_rating_line(number, rating, mine=rating.player == caller))
    if own is not None and place is not None and place > len(board):
        lines.append("...")
        lines.append(_rating_line(place, own, mine=True))
    return "\n".join(lines)


def _rating_line(place: int, rating: Rating, *, mine: bool) -> str:
    line = _(
        "{place}. {name} {rating} ({change}), {games}, {won}",
        place=place,
        name=escape_markdown(rating.name),
        rating=decimal(rating.ordinal),
        change=decimal(rating.change, sign=True),
        games=_games(rating.games),
        won=_won(rating.wins),
    )
    return f"**{line}**" if mine else line
