"""Golden message transcripts: what the bot says in a seeded game, compared whole.

A feature's golden test plays a game through the game service and the stores on an SQLite
file and a :class:`~tests.bot.clocks.FakeClock`, with fixed seeds, and writes down each step
and what it made the bot say: the outbox rows in the order they were queued (kind, where,
who is pinged, the buttons, the text; no pictures) and, where a step answers privately, that
answer as the feature's text functions word it. The transcript is compared with
``tests/bot/<feature>/golden/NAME.txt`` as a whole, so a rewording is one regenerated file
and a reviewed diff, not edits in every test that quotes the old words.

The files change only on purpose: run the golden tests with ``CASCADIA_REGEN_GOLDEN=1`` and
read the diff (see :mod:`tests.golden`, whose comparison they share with the engine's
playthroughs).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping
from datetime import timedelta

from bot.game import messages
from bot.game.outbox import DIRECT, Announcement
from bot.game.rows import GameStatus, OutboxRow
from bot.game.service import GameService, LoadedGame
from bot.lobby.cog import lobby_text
from bot.shell.errors import user_message
from bot.stores import Store
from engine import Move, choose
from tests.bot.clocks import FakeClock

INDENT = "    "


def _indented(text: str) -> list[str]:
    return [f"{INDENT}{line}".rstrip() for line in text.splitlines()] or [INDENT.rstrip()]


def post_heading(row: OutboxRow, announcement: Announcement) -> str:
    """One post's first line: its outbox id and kind, where it goes, whom it pings and its
    buttons (label and custom id)."""
    where = f"dm to {row.channel_id}" if row.kind in DIRECT else f"in #{row.channel_id}"
    parts = [f"[{row.id}] {row.kind} {where}"]
    parts.append(
        "pings " + " ".join(map(str, announcement.mentions)) if announcement.mentions else "no ping"
    )
    parts += [f"button {label} ({custom_id})" for label, custom_id in announcement.buttons]
    return " | ".join(parts)


class Transcript:
    """The steps of a scripted game and what each made the bot say, as golden text.

    :meth:`step` notes what the script does, at the clock's time; :meth:`posts` takes the
    outbox rows queued since the last call (marking them sent, as the drain would) and
    writes each down; :meth:`shown` writes down a text shown otherwise, such as a private
    answer.
    """

    def __init__(self, store: Store, clock: FakeClock, *, title: str, source: str) -> None:
        self.store = store
        self.clock = clock
        self.refusing: dict[int, Callable[[OutboxRow], Awaitable[object]]] = {}
        """Per user id: what to do when Discord refuses a direct message to them."""
        self.lines = [
            f"# {title}",
            f"# Made by {source}, compared whole.",
            "# Regenerate on purpose, then read the diff:"
            f" CASCADIA_REGEN_GOLDEN=1 pytest {source.split('::')[0]}",
            "# '== time' is a step of the script (UTC); '[id] kind' a post the outbox holds, with",
            "# where it goes, whom it pings and its buttons, its text indented below; other",
            "# headings a text shown outside the outbox (a private answer, the lobby message);",
            "# '--' a fact the script checked.",
        ]

    def step(self, what: str) -> None:
        """Note a step of the script."""
        self.lines.append(f"== {self.clock.now:%Y-%m-%d %H:%M} {what}")

    def shown(self, heading: str, text: str) -> None:
        """Write down a text shown outside the outbox under ``heading``: a private answer
        ("answer to Ada: /cascadia status"), the lobby message the cog edits in place."""
        self.lines.append(heading)
        self.lines += _indented(text)

    async def refused(self, heading: str, action: Awaitable[object]) -> BaseException:
        """Write down the refusal of ``action`` as the user reads it (see
        :func:`bot.shell.errors.user_message`); fails if it is not refused."""
        try:
            await action
        except Exception as error:
            text = user_message(error)
            if text is None:
                raise
            self.shown(f"{heading} (refused)", text)
            return error
        raise AssertionError(f"{heading}: not refused")

    def note(self, text: str) -> None:
        """Write down a fact the script checked, such as "nothing was posted"."""
        self.lines.append(f"-- {text}")

    async def posts(
        self, *, kinds: Collection[str] | None = None, quiet: bool = False
    ) -> list[Announcement]:
        """The rows queued since the last call, written down in order and marked sent (only
        those of ``kinds``, when given: a note counts the others); a direct message to
        someone in :attr:`refusing` is handed to their refusal instead (as the drain hands it
        when Discord refuses it), and what that queues follows. Unless ``quiet``, a note
        says when nothing was posted."""
        found: list[Announcement] = []
        written: list[str] = []
        left_out = 0
        while rows := await self.store.pending(500):
            for row in rows:
                refuse = self.refusing.get(row.channel_id) if row.kind in DIRECT else None
                if refuse is not None:
                    written.append(f"[{row.id}] {row.kind} dm to {row.channel_id} | refused")
                    await refuse(row)
                    continue
                await self.store.mark_sent(row.id, 1_000 + row.id)
                if kinds is not None and row.kind not in kinds:
                    left_out += 1
                    continue
                announcement = Announcement.from_row(row)
                written.append(post_heading(row, announcement))
                written += _indented(announcement.text)
                found.append(announcement)
        if left_out:
            shown = f" (only {', '.join(sorted(kinds))} shown)" if kinds else ""
            self.note(f"{left_out} posts left out here{shown}")
        elif not found and not quiet:
            self.note("nothing posted")
        self.lines += written
        return found

    def text(self) -> str:
        """The transcript so far, ending in a newline."""
        return "\n".join(self.lines) + "\n"


async def status_answer(service: GameService, table: LoadedGame) -> str:
    """``/cascadia status`` as the play cog words it (the lobby message before the start)."""
    if table.state is None:
        return lobby_text(table)
    deadline, away = await service.lookups.turn_facts(table)
    return messages.status_message(
        table.state,
        table.players,
        turn_started_at=table.game.turn_started_at,
        ended=table.game.status is GameStatus.ENDED,
        deadline=deadline,
        away=away,
    )


class Table:
    """A game in one channel played through the service, written down by ``script``;
    ``names`` are the players' names by user id."""

    def __init__(
        self,
        service: GameService,
        script: Transcript,
        names: Mapping[int, str],
        *,
        guild: int = 1,
        channel: int = 10,
    ) -> None:
        self.service = service
        self.script = script
        self.names = names
        self.guild = guild
        self.channel = channel
        self.game_id = 0

    async def start(self, *users: int, cards: str = "A") -> LoadedGame:
        """The first user opens a lobby, the others join, the first starts the game."""
        names = ", ".join(self.names[u] for u in users)
        first = self.names[users[0]]
        self.script.step(f"{names} sit down in #{self.channel} (cards {cards}), {first} starts")
        table = await self.service.lobby.open_lobby(
            guild_id=self.guild, channel_id=self.channel, user_id=users[0], name=first,
            cards=cards,
        )  # fmt: skip
        for user in users[1:]:
            await self.service.lobby.join(table.game.id, user_id=user, name=self.names[user])
        await self.service.lobby.start(table.game.id, user_id=users[0])
        self.game_id = table.game.id
        await self.script.posts()
        return await self.game()

    async def game(self) -> LoadedGame:
        """The game as it stands."""
        return await self.service.game_by_id(self.game_id)

    async def to_move(self) -> int:
        """The user id of the player to move."""
        table = await self.game()
        return table.players[table.require_state().current].user_id

    async def move(self, *, minutes: int = 1, seed: int = 1) -> LoadedGame:
        """The player to move plays the ``fast`` player's choice (``seed`` breaks its ties),
        ``minutes`` later; nothing is written down."""
        self.script.clock.advance(timedelta(minutes=minutes))
        table = await self.game()
        user = table.players[table.require_state().current].user_id
        move = Move.from_actions(choose(table.require_state(), "fast", seed=seed))
        await self.service.turns.play(self.channel, user_id=user, move=move)
        return await self.game()

    async def play(self, *, minutes: int = 1, seed: int = 1) -> LoadedGame:
        """:meth:`move`, written down with what it posted."""
        table = await self.game()
        user = table.players[table.require_state().current].user_id
        move = Move.from_actions(choose(table.require_state(), "fast", seed=seed))
        self.script.clock.advance(timedelta(minutes=minutes))
        self.script.step(f"{self.names[user]} plays `{move}`")
        await self.service.turns.play(self.channel, user_id=user, move=move)
        await self.script.posts()
        return await self.game()

    async def play_until(self, user: int) -> LoadedGame:
        """The others play until it is ``user``'s turn."""
        while await self.to_move() != user:
            await self.play()
        return await self.game()

    async def play_to_end(self, *, seed: int = 1) -> LoadedGame:
        """Every turn to the end, only the final message written down."""
        self.script.step("the game is played to its end")
        while not (table := await self.game()).require_state().is_over:
            await self.move(seed=seed)
        await self.script.posts(kinds={"finish"})
        return table
