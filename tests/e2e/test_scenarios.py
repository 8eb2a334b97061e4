"""A solo scenario through the real bot: ``new scenario:N`` fixes the cards, the start says
the target, the end says which conditions held."""

from __future__ import annotations

import re

from tests.e2e.harness import World, ranking


async def test_a_solo_scenario_from_its_lobby_to_its_result(world: World) -> None:
    table = world.table()
    await table.refused(
        world.alice, "new", {"scenario": 2, "cards": "A"}, reason="plays with its own cards"
    )
    lobby = await table.open(world.alice, scenario=2)
    assert "Played alone, this is **Solo scenario 2**: 80 points or more." in lobby.text
    start = await table.start(world.alice, button=False)
    assert "Cards: Bear B · Elk B · Salmon B · Hawk B · Fox B." in start.text
    assert "**Solo scenario 2**: 80 points or more." in start.text

    final = await table.play_to_end()
    [(_, total)] = ranking(final.text)
    found = re.search(r"\*\*Solo scenario 2 (met|not met)\*\*: (✅|❌) 80 points or more$",
                      final.text, re.M)  # fmt: skip
    assert found, final.text
    assert (found[1] == "met") == (found[2] == "✅") == (total >= 80)
