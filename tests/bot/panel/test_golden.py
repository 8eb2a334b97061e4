"""Golden transcript of the turn panel (see :mod:`tests.bot.golden`): each press of a scripted
game's panels and what the panel shows after it (its text, selects and buttons, as the panel
cog puts them on the message; no pictures), with the posts the turns make."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import game_service
from bot.panel.cog import panel_text
from bot.panel.draft import Press, Step, Verb
from bot.panel.service import Outcome, Panels, Shown
from bot.stores import Store
from tests.bot.clocks import FakeClock
from tests.bot.golden import Table, Transcript
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
ADA, BOB = 101, 202
NAMES = {ADA: "Ada", BOB: "Bob"}
THREE_ELK_SEED = 24
"""A two-player seed whose first display shows three elk, the second seat to move."""


class PanelScript:
    """One game's panels, pressed by the script and written down."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.script = table.script
        self.panels = Panels(table.service)
        self.open: dict[int, Shown] = {}

    def _write(self, user: int, what: str, shown: Shown) -> None:
        heading = f"panel of {self.table.names[user]} after {what}: {shown.outcome}"
        if shown.outcome is Outcome.SHOWN and shown.offer is not None:
            lines = [panel_text(shown)]
            for select in shown.offer.selects:
                options = " | ".join(option.label for option in select.options)
                lines.append(f"(select) {select.placeholder}: {options}")
            for row in shown.offer.buttons:
                lines.append("(buttons) " + " | ".join(button.label for button in row))
            self.script.shown(heading, "\n".join(lines))
        else:
            self.script.shown(heading, shown.notice or "(closed)")

    async def play(self, user: int) -> None:
        """``user`` presses **Play** on the latest turn message."""
        table = await self.table.game()
        state = table.require_state()
        self.script.step(f"{self.table.names[user]} presses Play")
        shown = await self.panels.open(table.game.id, user_id=user, turn=state.turn)
        self.open[user] = shown
        self._write(user, "Play", shown)

    async def press(self, user: int, verb: Verb, *values: str) -> None:
        """``user`` presses the button of ``verb`` (or picks ``values`` in its select)."""
        before = self.open[user]
        shown = await self.panels.press(
            before.game_id,
            user_id=user,
            turn=before.turn,
            version=before.version,
            press=Press(verb, values),
        )
        self.open[user] = shown
        self._write(user, f"{verb.value} {' '.join(values)}".strip(), shown)
        await self.script.posts(quiet=True)

    def first(self, user: int, verb: Verb) -> str | None:
        """The first option of the select of ``verb`` on ``user``'s panel (``None``: no such
        select)."""
        offer = self.open[user].offer
        assert offer is not None
        found = [s.options[0].value for s in offer.selects if s.verb is verb and s.options]
        return found[0] if found else None

    async def place(self, user: int, *, token: bool) -> None:
        """From the Where step to Check: the first place offered, the tile turned once if it
        can be, the token on the first tile offered (when ``token`` and one is) or returned."""
        where = self.first(user, Verb.WHERE)
        assert where is not None
        await self.press(user, Verb.WHERE, where)
        offer = self.open[user].offer
        if offer is not None and offer.step is Step.TURN:
            await self.press(user, Verb.LEFT)
            await self.press(user, Verb.NEXT)
        target = self.first(user, Verb.TOKEN) if token else None
        if target is None:
            await self.press(user, Verb.RETURN)
        else:
            await self.press(user, Verb.TOKEN, target)


async def until_a_nature_token(table: Table) -> int:
    """The players move until the one to move has a nature token; who that is."""
    table.script.step("the game goes on until a player to move has a nature token")
    while not (await table.game()).require_state().current_player.nature_tokens:
        await table.move()
    await table.script.posts(kinds=())
    return await table.to_move()


async def test_a_turn_on_the_panel_and_its_other_ways(
    sqlite_store: Store, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    service = game_service(sqlite_store, now=clock, seeds=lambda: THREE_ELK_SEED)
    script = Transcript(
        sqlite_store,
        clock,
        title=(
            f"The turn panel: two players, seed {THREE_ELK_SEED}, cards A; planning, a wipe,"
            " a suggestion, a whole turn step by step, a free choice and a nature-token wipe"
        ),
        source=request.node.nodeid,
    )
    table = Table(service, script, NAMES)
    await table.start(ADA, BOB)
    panels = PanelScript(table)
    mover = await table.to_move()
    [waiting] = (u for u in (ADA, BOB) if u != mover)

    await panels.play(waiting)
    await panels.press(waiting, Verb.PAIR, "1")
    await panels.press(waiting, Verb.CANCEL)

    await panels.play(mover)
    await panels.press(mover, Verb.WIPE_THREE)
    await panels.press(mover, Verb.CONFIRM)
    await panels.press(mover, Verb.SUGGEST)
    await panels.press(mover, Verb.BACK)
    await panels.press(mover, Verb.RETURN)
    await panels.press(mover, Verb.CONFIRM)

    await panels.play(waiting)
    await panels.press(waiting, Verb.PAIR, "2")
    await panels.place(waiting, token=True)
    await panels.press(waiting, Verb.CONFIRM)

    user = await until_a_nature_token(table)
    await panels.play(user)
    await panels.press(user, Verb.FREE)
    await panels.press(user, Verb.FREE_TILE, "1")
    await panels.press(user, Verb.FREE_TOKEN, "2")
    await panels.place(user, token=False)
    await panels.press(user, Verb.CONFIRM)

    user = await until_a_nature_token(table)
    await panels.play(user)
    await panels.press(user, Verb.NATURE_WIPE)
    await panels.press(user, Verb.WIPE_SLOTS, "1", "2")
    await panels.press(user, Verb.CONFIRM)
    assert_matches_golden(GOLDEN / "panel.txt", script.text())
