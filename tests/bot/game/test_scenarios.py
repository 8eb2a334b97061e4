"""Solo scenarios in the game: the start message says what a scenario asks, the final
message which of its conditions held; only a solo game with a scenario's cards is one."""

from __future__ import annotations

import re

from bot.game.outbox import Announcement
from bot.game.service import GameService
from bot.stores import Store
from engine import SCENARIOS, check_scenario
from tests.bot.archive.test_archive import play_to_end
from tests.bot.game.test_service import ADA, BOB, CHANNEL, GUILD
from tests.bot.game.test_tables_service import _finish as finish


async def _texts(store: Store) -> list[Announcement]:
    return [Announcement.from_row(row) for row in await store.pending()]


async def test_a_solo_game_with_a_scenarios_cards_is_told_its_goal_and_its_result(
    service: GameService, store: Store
) -> None:
    scenario = SCENARIOS[7]  # 90 points, 5+ nature tokens, no bear next to an elk
    lobby = await service.lobby.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ADA, name="Ada", cards=str(scenario.cards)
    )
    await service.lobby.start(lobby.game.id, user_id=ADA)
    [start] = [a for a in await _texts(store) if a.kind == "start"]
    assert f"**Solo scenario 8**: 90 points or more; {scenario.extras[0].words}" in start.text

    game = await finish(service, CHANNEL)
    [final] = [a for a in await _texts(store) if a.kind == "finish"]
    loaded = await service.game_by_id(game.id)
    state = loaded.require_state()
    [score] = loaded.score_sheet().players
    check = check_scenario(scenario, state.cards, score, state.seats[0].environment)
    verdict = "met" if check.met else "not met"
    found = re.search(r"\*\*Solo scenario 8 (met|not met)\*\*: (.+)$", final.text, re.M)
    assert found, final.text
    assert found[1] == verdict
    marks = [part.split(" ", 1) for part in found[2].split(" · ")]
    assert [(words, mark == "✅") for mark, words in marks] == check.lines()[1:]


async def test_only_a_solo_game_plays_a_scenario(service: GameService, store: Store) -> None:
    await play_to_end(service, ADA, BOB)
    texts = [a.text for a in await _texts(store)]
    assert not any("Solo scenario" in text for text in texts)
