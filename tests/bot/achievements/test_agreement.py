"""What the bot keeps of a finished game's achievements is what ``python -m engine
achievements`` prints for the game's exported table, for games of 1 to 3 people; and a solo game's
scenarios met show in the player's stats."""

from __future__ import annotations

import json
import subprocess
import sys

from bot.achievements.catalogue import SCENARIO_PREFIX
from bot.achievements.service import AchievementsService
from bot.app import ACHIEVEMENTS
from bot.game.records import export_document
from bot.game.service import GameService
from bot.stores import Store
from engine import SCENARIOS, check_scenario
from tests.bot.achievements.test_hooks import _play_fast
from tests.bot.clocks import FakeClock
from tests.bot.standings.test_results import ADA, GUILD, _game


def _cli(table: dict[str, object]) -> dict[str, object]:
    """``python -m engine achievements -`` on ``table``: its JSON answer."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", "achievements", "-"],
        input=json.dumps(table),
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout))


async def test_the_kept_achievements_are_the_clis_for_the_exported_table(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    # Games of 1, 2 and 3 people, each of its own people: what each keeps is that game's.
    for players in ((101,), (201, 202), (301, 302, 303)):
        game_id = await _game(service, *players)
        table = await _play_fast(service, clock, game_id)
        document = export_document(
            table.game, table.players, table.require_state(), await store.moves(game_id)
        )
        printed = _cli(document["table"])
        answers = printed["players"]
        assert isinstance(answers, list)
        for player, answer in zip(table.players, answers, strict=True):
            expected = set(answer["achievements"]) | {
                f"{SCENARIO_PREFIX}{n}" for n in answer["scenarios"]
            }
            assert await store.achievements_of(player.user_id) == expected
            assert answer["scenarios"] == [] or len(players) == 1


async def test_a_solo_game_that_meets_its_scenario_shows_it_in_stats(
    service: GameService, clock: FakeClock
) -> None:
    scenario = SCENARIOS[0]
    game_id = await _game(service, ADA)
    table = await _play_fast(service, clock, game_id)
    state = table.require_state()
    assert state.cards == scenario.cards, "the tests' lobbies play cards A: scenario 1"
    [score] = table.score_sheet().players
    check = check_scenario(scenario, state.cards, score, state.seats[0].environment)
    member = await AchievementsService(service, ACHIEVEMENTS).member(ADA, guild_id=GUILD)
    met = "Solo scenarios met: 1 (of 15)." in member.text
    assert met == check.met
    assert check.met, f"the fast player scored {score.total} on scenario 1"
