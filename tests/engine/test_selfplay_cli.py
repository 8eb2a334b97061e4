"""``python -m engine selfplay`` and ``replay --table``, run as the checks run them."""

from __future__ import annotations

import json
import os
import re
import resource
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GameRecord, score_state
from tests.engine.test_cli_games import ROOT, run


def test_selfplay_lines_replay_and_rescore_to_their_scores(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run(
        "selfplay", "--players", "2", "--cards", "random", "--policy", "greedy,fast",
        "--games", "2", "--seed", "40", "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = result.stdout.splitlines()
    assert [line.split(":")[0] for line in summary] == ["greedy", "fast"]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for text in summary:
        # "fast: base 88.50 +- 1.23 (total ...) over 2 games; per move p50 .. ms p99 .. ms;
        # bear .. elk .. salmon .. hawk .. fox .. corridors .. nature .."
        policy = text.split(":")[0]
        found = re.search(r"base (\d+\.\d\d) \+- (\d+\.\d\d) .* over 2 games", text)
        assert found, text
        means = [
            statistics.fmean(
                s["base"]
                for s, p in zip(line["scores"], line["policies"], strict=True)
                if p == policy
            )
            for line in lines
        ]
        assert float(found[1]) == pytest.approx(statistics.fmean(means), abs=0.006)
        assert float(found[2]) > 0
        assert re.search(r"per move p50 \d+\.\d ms p99 \d+\.\d ms", text), text
        split = re.findall(r"(\w+) (\d+\.\d)(?= |$)", text.split("ms;")[-1])
        assert [part for part, _ in split] == [
            "bear", "elk", "salmon", "hawk", "fox", "corridors", "nature"
        ]  # fmt: skip
    assert [line["seed"] for line in lines] == [40, 41]
    assert [line["policies"] for line in lines] == [["greedy", "fast"], ["fast", "greedy"]]
    for line in lines:
        state = GameRecord.from_json(line["record"]).replay()
        assert state.is_over
        assert {seat for seat, _ in line["seconds"]} == {0, 1}
        # One timing per decision: the 40 turns, plus any turn that started with a wipe.
        assert len(line["seconds"]) >= 40
        assert all(secs >= 0 for _, secs in line["seconds"])
        assert any(secs > 0 for _, secs in line["seconds"])
        record = tmp_path / "record.json"
        record.write_text(json.dumps(line))
        table = run("replay", "--table", str(record))
        assert table.returncode == 0, table.stderr
        assert set(json.loads(table.stdout)) == {"cards", "players"}
        scored = run("score", "-", stdin=table.stdout)
        assert scored.returncode == 0, scored.stderr
        players = json.loads(scored.stdout)["players"]
        assert [p["total"] for p in players] == [s["total"] for s in line["scores"]]
        names = line["record"]["names"]
        assert players == score_state(state, names).to_json()["players"]
        for score in line["scores"]:
            corridors = sum(score["habitats"].values())
            assert score["base"] == score["wildlife_total"] + corridors + score["nature_tokens"]


def test_selfplay_strong_with_a_rollout_budget(tmp_path: Path) -> None:
    out = tmp_path / "strong.jsonl"
    result = run(
        "selfplay", "--players", "1", "--cards", "A", "--policy", "strong", "--games", "1",
        "--seed", "3", "--out", str(out), "--rollouts", "4",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("strong: base ")
    assert len(out.read_text().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "clever"], "unknown policy"),
        (["--policy", "greedy", "--cards", "QQ"], "not a card choice"),
        (["--policy", "greedy", "--out", "/nonexistent/dir/x.jsonl"], "cannot write"),
    ],
)
def test_selfplay_bad_options_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    base = ["--players", "2", "--seed", "1", "--out", str(tmp_path / "x.jsonl")]
    result = run("selfplay", *base, *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--seconds", "nan"),
        ("--seconds", "inf"),
        ("--seconds", "-1"),
        ("--seconds", "0"),
        ("--seconds", "soon"),
        ("--rollouts", "0"),
        ("--rollouts", "-5"),
        ("--rollouts", "2.5"),
        ("--rollouts", "²"),
    ],
)
def test_selfplay_refuses_a_budget_that_never_ends_or_allows_nothing(
    tmp_path: Path, option: str, value: str
) -> None:
    # greedy ignores the budget: a budget let through plays its game and exits 0.
    out = tmp_path / "x.jsonl"
    result = run(
        "selfplay", "--players", "1", "--policy", "greedy", "--seed", "1", "--out", str(out),
        f"{option}={value}",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("usage: python -m engine selfplay ")
    error = lines[-1]
    assert error.startswith(f"python -m engine selfplay: error: argument {option}: ")
    assert repr(value) in error
    assert not out.exists()


def assert_cannot_write(result: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit status 2 as for any file the command cannot use, no summary, one line."""
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert result.stderr == f"error: {message}\n"


def test_selfplay_onto_a_full_disk_is_one_line_naming_the_file() -> None:
    # /dev/full opens, then refuses the first game's line as a full disk does.
    result = run(
        "selfplay", "--players", "1", "--policy", "greedy", "--seed", "1", "--games", "2",
        "--out", "/dev/full",
    )  # fmt: skip
    assert_cannot_write(result, "cannot write /dev/full: No space left on device")


FILE_LIMIT = 2048
"""Bytes a file may grow to in the next test: one line of a solo greedy game (about 1,650
bytes) fits, two do not."""


def test_selfplay_failing_after_a_game_keeps_the_whole_lines(tmp_path: Path) -> None:
    # A file size limit makes the second game's write fail with EFBIG (Python ignores
    # SIGXFSZ), part of the line written: an I/O error in the middle of the run.
    out = tmp_path / "games.jsonl"
    result = subprocess.run(
        [
            sys.executable, "-m", "engine", "selfplay", "--players", "1", "--policy", "greedy",
            "--seed", "1", "--games", "3", "--out", str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT)),
        timeout=120,
        check=False,
    )  # fmt: skip
    assert_cannot_write(
        result, f"cannot write {out}: File too large; it keeps the 1 game written before"
    )
    [line] = out.read_text().splitlines(keepends=True)
    assert line.endswith("\n")
    assert json.loads(line)["game"] == 0
