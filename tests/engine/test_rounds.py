"""A game round by round (``engine.rounds``) and ``python -m engine replay --rounds``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import (
    TURNS_PER_PLAYER,
    Hex,
    IllegalAction,
    PlaceTile,
    apply_all,
    new_game,
    play_rounds,
    record_for,
    replay_rounds,
    score_state,
)
from engine.players import random_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("ann", "ben", "cy", "dee")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_last_round_is_the_final_score_sheet(players: int) -> None:
    state, actions = random_game(players=players, seed=40 + players)
    names = NAMES[:players]
    rounds = replay_rounds(record_for(state, actions, names))
    assert [played.number for played in rounds] == list(range(1, TURNS_PER_PLAYER + 1))
    final = score_state(state, names)
    assert rounds[-1].sheet == final
    assert rounds[-1].totals == {score.name: score.total for score in final.players}
    assert rounds[-1].state == state


@pytest.mark.parametrize("players", [1, 2, 4])
def test_each_round_scores_the_game_as_it_stood_after_every_seat_moved(players: int) -> None:
    state, actions = random_game(players=players, seed=7)
    start = new_game(players=players, seed=7, cards=state.cards)
    rounds = list(play_rounds(start, actions))
    # Replay action by action and score whenever a multiple of `players` turns is complete.
    expected = []
    replayed = start
    for action in actions:
        turn = replayed.turn
        replayed = apply_all(replayed, [action])
        if replayed.turn != turn and replayed.turn % players == 0:
            expected.append(score_state(replayed))
    assert [played.sheet for played in rounds] == expected
    assert rounds[0].totals == {
        f"Player {seat + 1}": score.total for seat, score in enumerate(expected[0].players)
    }


def test_mid_game_totals_count_the_majority_bonuses_of_that_moment() -> None:
    state, actions = random_game(players=3, seed=11)
    middle = replay_rounds(record_for(state, actions))[9]
    bonuses = {score.name: sum(score.habitat_bonus.values()) for score in middle.sheet.players}
    assert any(bonuses.values()), "no majority bonus after ten rounds of three players"
    for score in middle.sheet.players:
        base = score.wildlife_total + sum(score.habitats.values()) + score.nature_tokens
        assert middle.totals[score.name] == base + bonuses[score.name]


def test_placed_is_the_tile_each_seat_put_down_that_round() -> None:
    state, actions = random_game(players=4, seed=3)
    rounds = replay_rounds(record_for(state, actions))
    tiles = [action.at for action in actions if isinstance(action, PlaceTile)]
    assert sorted(str(h) for r in rounds for h in r.placed if h) == sorted(map(str, tiles))
    previous = new_game(players=4, seed=3, cards=state.cards)
    for played in rounds:
        for seat, placed in enumerate(played.placed):
            assert placed is not None
            assert placed in played.state.seats[seat].environment
            assert placed not in previous.seats[seat].environment
            grown = set(played.state.seats[seat].environment) - set(
                previous.seats[seat].environment
            )
            assert grown == {placed}
        previous = played.state


def test_a_game_ended_within_a_round_ends_with_that_part_of_a_round() -> None:
    state, actions = random_game(players=3, seed=21)
    start = new_game(players=3, seed=21, cards=state.cards)
    # Seven whole turns: two rounds and the first seat's turn of the third.
    taken, replayed = [], start
    for action in actions:
        replayed = apply_all(replayed, [action])
        taken.append(action)
        if replayed.turn == 7:
            break
    rounds = list(play_rounds(start, taken, ["a", "b", "c"]))
    assert [played.number for played in rounds] == [1, 2, 3]
    assert rounds[-1].state.turn == 7
    assert rounds[-1].sheet == score_state(replayed, ["a", "b", "c"])
    mover = start.first_player
    assert [seat for seat, hex_ in enumerate(rounds[-1].placed) if hex_] == [mover]


def test_no_turn_played_is_no_round() -> None:
    assert list(play_rounds(new_game(players=2, seed=1), [])) == []


def test_a_refused_action_raises_after_the_rounds_before_it() -> None:
    state, actions = random_game(players=1, seed=5)
    start = new_game(players=1, seed=5, cards=state.cards)
    taken, replayed = [], start
    for action in actions:
        replayed = apply_all(replayed, [action])
        taken.append(action)
        if replayed.turn == 3:
            break
    rounds = play_rounds(start, [*taken, PlaceTile(Hex(9, 9), 0)])
    assert [next(rounds).number for _ in range(3)] == [1, 2, 3]
    with pytest.raises(IllegalAction):
        next(rounds)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_replay_rounds_prints_every_round_s_totals_by_name(tmp_path: Path) -> None:
    state, actions = random_game(players=2, seed=12)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_for(state, actions, ("ann", "Zoë")).to_json()))
    result = run("replay", str(path), "--rounds")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert isinstance(printed, list)
    assert [entry["round"] for entry in printed] == list(range(1, 21))
    assert all(set(entry) == {"round", "scores"} for entry in printed)
    assert all(list(entry["scores"]) == ["ann", "Zoë"] for entry in printed)
    final = score_state(state, ["ann", "Zoë"])
    assert printed[-1]["scores"] == {p.name: p.total for p in final.players}
    assert all(isinstance(total, int) for entry in printed for total in entry["scores"].values())


def test_replay_rounds_reads_a_bot_export_and_names_seats_without_names() -> None:
    state, actions = random_game(players=1, seed=3)
    export = {"record": record_for(state, actions).to_json()}
    result = run("replay", "-", "--rounds", stdin=json.dumps(export))
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert len(printed) == 20
    assert printed[-1]["scores"] == {"Player 1": score_state(state).players[0].total}


def test_replay_rounds_and_table_together_is_one_line_and_exit_2() -> None:
    state, actions = random_game(players=1, seed=3)
    result = run(
        "replay", "-", "--rounds", "--table", stdin=json.dumps(record_for(state, actions).to_json())
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == "error: --table and --rounds cannot be combined"


def test_replay_rounds_of_a_broken_record_is_one_line_and_exit_2() -> None:
    record = '{"version": 1, "players": 2, "cards": "A", "seed": 1, "actions": ["tile 9,9 0"]}'
    result = run("replay", "-", "--rounds", stdin=record)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "does not replay" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
