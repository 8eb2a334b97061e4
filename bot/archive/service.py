"""The archive of a server's finished games: ``/cascadia history`` and ``/cascadia replay``.

Every player's total after each round is counted once, by replaying the moves, and kept in
the store: when a game ends, or the first time a game finished before the totals were kept
is asked for. The history's texts are pure functions of :class:`ArchivedGame` values.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from babel.lists import format_list

from bot.archive.rounds import round_totals
from bot.archive.store import ArchiveStore as Store
from bot.game.captions import MAX_CHOICES
from bot.game.errors import BotError, DamagedLog, DamagedState
from bot.game.markdown import jump_url
from bot.game.names import safe, seat_names
from bot.game.records import UNREADABLE, logged_actions, read_state
from bot.game.rows import GameRow
from engine import GameRecord, record_for
from i18n import N_, _, babel_locale, day, number, reader

log = logging.getLogger(__name__)

PAGE_SIZE = 5
"""Games on one page of ``history``: five entries stay well inside a message."""
MAX_LABEL = 100
"""Discord's limit on an autocomplete choice's name."""


class NoArchivedGame(BotError):
    """The game asked for is not a finished game of this server."""

    def __init__(self, game: str = "") -> None:
        if not game:
            super().__init__(N_("No game has finished on this server yet."))
            return
        super().__init__(
            N_("No finished game {game} on this server: `/cascadia history` lists them."),
            game=repr(game[:40]),
        )


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game as the archive lists it."""

    game_id: int
    guild_id: int
    channel_id: int
    finished_at: datetime
    cards: str
    names: tuple[str, ...]
    """The players' names in seat order."""
    totals: tuple[int, ...]
    """The final scores, in seat order."""
    winners: tuple[str, ...]
    """One, or several sharing the win."""
    message_id: int | None = None
    """The message that ended the game, once posted."""
    continues: int | None = None
    """The game whose players pressed **Play again** to start this one."""

    @property
    def jump_url(self) -> str | None:
        """The link to the game's final message, if it was posted."""
        if self.message_id is None:
            return None
        return jump_url(self.guild_id, self.channel_id, self.message_id)

    def label(self) -> str:
        """The game's name in ``replay``'s autocomplete: number, date and scores."""
        scores = ", ".join(f"{n} {t}" for n, t in zip(self.names, self.totals, strict=True))
        text = _("Game {game}, {date}: {scores}", game=self.game_id, date=self.day, scores=scores)
        return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"

    @property
    def day(self) -> str:
        """The day the game finished, as the reader writes dates."""
        return day(self.finished_at)

    def matches(self, typed: str) -> bool:
        """Whether what was typed in ``replay``'s autocomplete finds the game: part of its
        label, or its day written ``2024-05-01``."""
        wanted = typed.strip().casefold()
        return wanted in self.label().casefold() or wanted in self.finished_at.date().isoformat()


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of ``history``: its games, which page of how many, and whose games."""

    games: tuple[ArchivedGame, ...]
    page: int
    """1 for the newest games."""
    pages: int
    total: int
    whose: str | None = None
    """The member whose games these are; ``None``: the server's."""
    asked: int | None = None
    """The page asked for when there is no such page (this one is the last instead)."""


def game_entry(game: ArchivedGame) -> str:
    """One game of ``history``: number, date, cards and winner, then the scores and the link
    to the final message."""
    winners = format_list(
        [f"**{safe(name)}**" for name in game.winners], locale=babel_locale(reader())
    )
    if len(game.winners) > 1:
        result = _("{winners} shared the win", winners=winners)
    else:
        result = _("{winners} won", winners=winners)
    fields = {"game": game.game_id, "date": game.day, "cards": game.cards, "result": result}
    if game.continues is None:
        head = _("**Game {game}**, {date}, cards {cards}: {result}", **fields)
    else:
        head = _(
            "**Game {game}** (played again after game {previous}), {date}, cards {cards}: {result}",
            previous=game.continues,
            **fields,
        )
    ranked = sorted(zip(game.names, game.totals, strict=True), key=lambda s: -s[1])
    scores = " · ".join(f"{safe(name)} {total}" for name, total in ranked)
    if game.jump_url is None:
        return f"{head}\n{scores}"
    return f"{head}\n" + _("{scores} · [final message]({url})", scores=scores, url=game.jump_url)


def history_text(page: HistoryPage) -> str:
    """The private answer of ``history``: a heading, then one entry per game, newest first."""
    name = None if page.whose is None else safe(page.whose)
    if not page.games:
        if name is None:
            return _("No finished games on this server yet.")
        return _("No finished games with {name} yet.", name=name)
    fields = {"name": name, "total": number(page.total), "page": page.page, "pages": page.pages}
    if page.pages > 1:
        if name is None:
            head = _(
                "**Finished games on this server** ({total} in all, page {page} of {pages})",
                **fields,
            )
        else:
            head = _(
                "**Finished games with {name}** ({total} in all, page {page} of {pages})", **fields
            )
    elif name is None:
        head = _("**Finished games on this server** ({total} in all)", **fields)
    else:
        head = _("**Finished games with {name}** ({total} in all)", **fields)
    if page.asked is not None:
        if page.pages == 1:
            missing = _("There is no page {asked}: this is the only page.", asked=page.asked)
        else:
            missing = _(
                "There is no page {asked}: this is the last, page {pages}.",
                asked=page.asked,
                pages=page.pages,
            )
        head = f"{missing}\n{head}"
    return "\n\n".join([head, *(game_entry(game) for game in page.games)])


class Archive:
    """The finished games of a server, read from the store, their round totals kept once."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def totals(self, game: GameRow) -> list[tuple[int, ...]]:
        """The game's totals round by round: as kept, or counted now (in a thread) and kept,
        for a game that finished before they were kept."""
        kept = await self.store.round_scores(game.id)
        if kept is not None:
            return kept
        counted = await asyncio.to_thread(round_totals, await self.record(game))
        await self.store.save_round_scores(game.id, counted)
        return counted

    async def record(self, game: GameRow) -> GameRecord:
        """The record of a finished game: its settings and every move, to replay it."""
        if game.state is None:
            raise NoArchivedGame(str(game.id))
        seats = await self.store.seats(game.id)
        try:
            state = read_state(game.state)
            moves = await self.store.moves(game.id)
        except (*UNREADABLE, DamagedLog) as error:
            why = f"{type(error).__name__}: {error}"
            log.warning("game %d: its record cannot be read (%s)", game.id, why)
            raise DamagedState() from error
        names = seat_names([seat.name for seat in seats])
        return record_for(state, logged_actions(moves), names)

    async def finished(self, guild_id: int, game_id: int) -> GameRow:
        """The finished game ``game_id`` of the guild; :class:`NoArchivedGame` otherwise."""
        # A daily trek's board is shown only to those who played its day (/cascadia daily).
        game = await self.store.archived_game(guild_id, game_id)
        if game is None:
            raise NoArchivedGame(str(game_id))
        return game

    async def history(
        self, guild_id: int, *, user_id: int | None = None, whose: str | None = None, page: int = 1
    ) -> HistoryPage:
        """Page ``page`` of the guild's finished games (only ``user_id``'s, named ``whose``),
        newest first; a page past the last shows the last, and says so."""
        total = await self.store.count_finished_games(guild_id, user_id=user_id)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        asked = page if page > pages and total > 0 else None
        page = min(max(page, 1), pages)
        rows = await self.store.finished_games(
            guild_id, user_id=user_id, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        if user_id is not None and whose is None and rows:
            # A page turned by a button knows the member by id only: their name at the table.
            seats = await self.store.seats(rows[0].id)
            whose = next((s.name for s in seats if s.user_id == user_id), None)
        return HistoryPage(tuple(await self.archived(rows)), page, pages, total, whose, asked)

    async def recent(self, guild_id: int, typed: str = "") -> list[ArchivedGame]:
        """The guild's latest finished games whose label contains ``typed``, for
        autocomplete."""
        rows = await self.store.finished_games(guild_id, limit=MAX_CHOICES)
        games = await self.archived(rows)
        return [game for game in games if game.matches(typed)]

    async def archived(self, rows: Sequence[GameRow]) -> list[ArchivedGame]:
        """The finished games of ``rows`` as the archive lists them."""
        seats = await self.store.seats_of([row.id for row in rows])
        messages = await self.store.final_messages([row.id for row in rows])
        found = []
        for row in rows:
            if row.state is None:
                continue
            names = tuple(seat_names([seat.name for seat in seats.get(row.id, [])]))
            try:
                totals = (await self.totals(row))[-1]
                state = read_state(row.state)
            except (DamagedState, *UNREADABLE) as error:
                # One damaged game leaves the list, not the whole list unreadable.
                log.warning("game %d left out of the archive: %s", row.id, type(error).__name__)
                continue
            # The score sheet's tie-break: the most nature tokens left.
            best = max(zip(totals, (s.nature_tokens for s in state.seats), strict=True))
            winners = tuple(
                name
                for name, total, seat in zip(names, totals, state.seats, strict=True)
                if (total, seat.nature_tokens) == best
            )
            found.append(
                ArchivedGame(
                    game_id=row.id,
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    finished_at=row.updated_at,
                    cards=str(state.cards),
                    names=names,
                    totals=totals,
                    winners=winners,
                    message_id=messages.get(row.id),
                    continues=row.continues,
                )
            )
        return found
