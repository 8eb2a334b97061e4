"""``python -m engine replay`` and ``simulate``, and scoring whole game states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import (
    GameRecord,
    InvalidInput,
    final_scores,
    record_for,
    score_state,
    state_table,
)
from engine.players import random_game
from engine.table import table_from_json

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_replay_prints_the_final_score_sheet(tmp_path: Path) -> None:
    state, actions = random_game(players=3, seed=12)
    names = ("ann", "ben", "cy")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_for(state, actions, names).to_json()))
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["finished"] is True
    expected = score_state(state, names).to_json()
    assert printed["players"] == expected["players"]
    assert printed["ranking"] == expected["ranking"]


def test_replay_reads_a_bot_export_from_stdin() -> None:
    state, actions = random_game(players=1, seed=3)
    export = {"record": record_for(state, actions).to_json(), "table": {}}
    result = run("replay", "-", stdin=json.dumps(export))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["total"] == score_state(state).players[0].total


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{", "malformed JSON"),
        ("[]", "not a game record"),
        ('{"version": 1, "players": 2, "cards": "A", "seed": 1, "actions": ["take 9"]}', "1-4"),
        (
            '{"version": 1, "players": 2, "cards": "A", "seed": 1, "actions": ["tile 9,9 0"]}',
            "does not replay",
        ),
    ],
)
def test_replay_bad_input_is_one_line_and_exit_2(stdin: str, message: str) -> None:
    result = run("replay", "-", stdin=stdin)
    assert_one_line(result, message)


def assert_one_line(result: subprocess.CompletedProcess[str], message: str) -> None:
    """Refused with exit status 2, nothing printed, one line on standard error."""
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert message in lines[0]


RECORD = '{"version": 1, "players": 2, "cards": "A", "seed": SEED, "actions": []}'


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[" * 100_000, id="nested 100,000 deep"),
        pytest.param('{"record": ' * 100_000, id="an export nested 100,000 deep"),
        pytest.param(RECORD.replace("SEED", "1" * 5000), id="a 5,000-digit seed"),
    ],
)
@pytest.mark.parametrize("source", ["file", "stdin"])
def test_replay_of_json_too_deep_or_too_long_to_read_is_one_line(
    tmp_path: Path, text: str, source: str
) -> None:
    if source == "stdin":
        result = run("replay", "-", stdin=text)
    else:
        path = tmp_path / "record.json"
        path.write_text(text)
        result = run("replay", str(path))
    assert_one_line(result, "malformed JSON")


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--players", "2", "--seed", "1", "--games", "2"],
        ["daily", "--date", "2024-01-01"],
        ["replay", "RECORD"],
    ],
    ids=lambda args: args[0],
)
def test_standard_output_on_a_full_disk_is_one_line(tmp_path: Path, args: list[str]) -> None:
    state, actions = random_game(players=1, seed=3)
    record = tmp_path / "record.json"
    record.write_text(json.dumps(record_for(state, actions).to_json()))
    args = [str(record) if arg == "RECORD" else arg for arg in args]
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "engine", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            check=False,
        )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr == "error: cannot write standard output: No space left on device\n"


def test_simulate_prints_one_finished_sheet_per_game() -> None:
    result = run("simulate", "--players", "4", "--seed", "7", "--games", "3", "--cards", "ABCDA")
    assert result.returncode == 0, result.stderr
    sheets = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["seed"] for s in sheets] == [7, 8, 9]
    assert all(s["cards"] == "ABCDA" and len(s["players"]) == 4 for s in sheets)
    state, _ = random_game(players=4, seed=8, cards="ABCDA")
    assert sheets[1]["ranking"] == list(score_state(state).ranking)


@pytest.mark.parametrize(
    "args",
    [["--players", "5", "--seed", "1"], ["--players", "2", "--seed", "x"], ["--players", "2"]],
)
def test_simulate_refuses_bad_options(args: list[str]) -> None:
    result = run("simulate", *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_simulate_refuses_bad_cards_in_one_line() -> None:
    result = run("simulate", "--players", "2", "--seed", "1", "--cards", "QQ")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_state_table_scores_like_the_state() -> None:
    state, _ = random_game(players=2, seed=30)
    cards, players = table_from_json(json.loads(json.dumps(state_table(state, ["a", "b"]))))
    assert cards == state.cards
    assert final_scores(cards, players) == score_state(state, ["a", "b"])


def test_names_must_match_the_seats() -> None:
    state, _ = random_game(players=2, seed=30)
    with pytest.raises(InvalidInput):
        score_state(state, ["only one"])
    with pytest.raises(InvalidInput):
        GameRecord.from_json({**record_for(state).to_json(), "names": ["x"]})
