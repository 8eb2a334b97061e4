"""A computer's turn is not told in the language of whoever woke it: its game's messages are
written in the game's own language, by the kernel."""

from __future__ import annotations

from collections.abc import Sequence

from bot.computers.turns import ComputerTurns
from bot.game.service import GameService
from i18n import reader, speaking


async def test_a_computer_s_task_does_not_take_the_reader_of_whoever_woke_it(
    service: GameService,
) -> None:
    async def announce(ids: Sequence[int]) -> None:
        return None

    heard: list[str | None] = []
    turns = ComputerTurns(service, announce)

    async def play(game_id: int) -> None:
        heard.append(reader())

    turns._play = play  # type: ignore[method-assign]
    with speaking("fr"):  # a French person's press woke it
        turns.wake([7])
    await turns.idle()
    assert heard == [None]
