"""The achievements' texts, and the catalogue and reading the bot is given."""

from __future__ import annotations

from bot.achievements.catalogue import engine_earned
from bot.achievements.texts import MAX_NAMED, finish_line, server_lines, stats_lines
from bot.app import ACHIEVEMENTS
from engine import new_game, score_state


def test_the_catalogue_has_twenty_five_achievements_with_their_own_titles() -> None:
    ids = list(ACHIEVEMENTS.ids)
    assert len(ids) == len(set(ids)) == 25
    assert len({ACHIEVEMENTS.title(a) for a in ids}) == 25


def test_the_reading_names_only_catalogued_ids() -> None:
    state = new_game(players=2, seed=3, cards="A")
    earned = engine_earned(state, score_state(state))
    assert len(earned) == 2
    assert all(ids <= set(ACHIEVEMENTS.ids) for ids in earned)
    # Nothing on the boards yet: no token of any wildlife, and nothing left over 80 points.
    assert {"no-bear", "no-fox"} <= earned[0]
    assert not any(a.startswith("score-") for a in earned[0])


def test_the_final_line_counts_what_it_does_not_name() -> None:
    titles = [f"t{n}" for n in range(MAX_NAMED + 2)]
    line = finish_line([("**ada**", titles), ("**bo**", [])], [("**ada**", ["t0"])])
    assert line == (
        f"\nFirst time: **ada** · {', '.join(titles[:MAX_NAMED])} +2 more."
        " First on the server: **ada** · t0."
    )
    assert finish_line([("**ada**", [])], [("**ada**", [])]) == ""


def test_stats_and_server_lines() -> None:
    assert stats_lines([], 25) == "Achievements: 0 of 25"
    assert stats_lines([("No bears", 4), ("80 points", 7)], 25) == (
        "Achievements: 2 of 25: No bears (game 4), 80 points (game 7)"
    )
    assert server_lines([]) == ""
    counts = [(title, 1 + n % 4) for n, (_, title) in enumerate(ACHIEVEMENTS.catalogue)]
    line = server_lines(counts)
    assert line.startswith("Achievements, rarest first: 80 points (1), ")
    assert len(line) < 1000
