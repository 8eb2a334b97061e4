"""The learned value: board features on hand-made environments, the shipped weights and
their provenance, and a training run that is the same every time."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine import InvalidInput
from engine.components import CardSet
from engine.environment import Environment
from engine.players import choose
from engine.players.train import Position, fit, game_positions, train
from engine.players.value import (
    BOARD_FEATURES,
    CONTROLS,
    FEATURES,
    WEIGHTS_FILES,
    ValueModel,
    model_for,
    model_inputs,
    pattern_features,
    shipped_model,
)
from tests.engine.helpers import state_at_turn

PATTERNS = BOARD_FEATURES[BOARD_FEATURES.index("slots bear") : BOARD_FEATURES.index("nature")]


def patterns(text: str) -> dict[str, float]:
    """The pattern features of an environment written in its text form, by name."""
    return dict(zip(PATTERNS, pattern_features(Environment.parse(text)), strict=True))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A lone bear with a tile beside it that could take a second one.
        ("0,0 M/b=b; 1,0 F/b", {"lone bears": 1, "slots bear": 1, "empty tiles": 1}),
        # A pair is no longer lone.
        ("0,0 M/b=b; 1,0 F/b=b", {"lone bears": 0, "slots bear": 0, "empty tiles": 0}),
        # A lone elk may start a line in any of six directions.
        ("0,0 M/e=e", {"elk ends": 6}),
        # A line of two continues only straight on, at either end.
        ("0,0 M/e=e; 1,0 M/e=e", {"elk ends": 2}),
        # A line whose one end is a tile that cannot take an elk.
        ("0,0 M/e=e; 1,0 M/e=e; 2,0 F/b", {"elk ends": 1, "slots bear": 1}),
        ("0,0 R/s=s", {"salmon ends": 1}),
        ("-1,0 R/s=s; 0,0 R/s=s; 1,0 R/s=s", {"salmon ends": 2}),
        # A branched run (three salmon around the middle one) has no ends worth growing.
        ("-1,0 R/s=s; 0,0 R/s=s; 1,0 R/s=s; 0,1 R/s=s", {"salmon ends": 0}),
        # One free hawk slot beside a hawk, one away from it.
        ("0,0 M/h=h; 1,0 F/h; 3,0 F/h", {"safe hawk slots": 1, "slots hawk": 2}),
        # A fox next to a bear: four species still missing, five free neighbours.
        ("0,0 M/f=f; 1,0 F/b=b", {"fox room": 4}),
    ],
)
def test_pattern_features_of_hand_made_environments(text: str, expected: dict[str, int]) -> None:
    found = patterns(text)
    assert {name: found[name] for name in expected} == expected


def test_the_features_and_inputs_line_up() -> None:
    assert len(pattern_features(Environment.parse("0,0 M/b"))) == len(PATTERNS)
    inputs = model_inputs([1.0] * len(BOARD_FEATURES), 10)
    assert len(inputs) == len(FEATURES)
    assert inputs[:3] == [1.0, 0.5, 0.25]
    assert inputs[-1] == 0.5


SHIPPED = sorted(path.name for path in (resources.files("engine.players") / "weights").iterdir())


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_weights_file_loads_with_its_provenance(name: str) -> None:
    model = shipped_model(name)
    assert len(model.weights) == len(FEATURES)
    assert len(model.controls) == len(CONTROLS)
    provenance = model.provenance
    command = provenance["command"]
    assert command.startswith(f"python -m engine.players.train --seed {provenance['seed']} ")
    assert f"--games {provenance['games']}" in command
    assert command.endswith(f"--out engine/players/weights/{name}")
    assert provenance["positions"] > 10_000
    # The fit explains most of the score to go.
    assert provenance["fit_rms"] < provenance["label_rms"] / 3
    # A model trained on the games of another names one that is shipped too.
    if "--weights " in command:
        watched = command.split("--weights ")[1].split()[0]
        assert watched in SHIPPED
        assert provenance["policy"] == f"fast with {watched}"


@pytest.mark.parametrize("cards", list(WEIGHTS_FILES))
def test_the_cards_models_are_shipped(cards: str) -> None:
    model = model_for(CardSet.parse(cards))
    assert model is not None
    assert model == shipped_model(WEIGHTS_FILES[cards])
    assert model.provenance["cards"] == cards


def test_only_shipped_weights_load_by_name() -> None:
    assert shipped_model(WEIGHTS_FILES["AAAAA"]) == model_for(CardSet.parse("AAAAA"))
    for name in ("missing.json", "../value.py"):
        with pytest.raises(InvalidInput, match="no shipped weights"):
            shipped_model(name)


def test_training_can_watch_the_fast_player_of_shipped_weights() -> None:
    name = WEIGHTS_FILES["AAAAA"]
    model = train(
        players=2,
        games=1,
        seed=5,
        cards="AAAAA",
        policy="fast",
        explore=0.0,
        weights=name,
        command=f"python -m engine.players.train --seed 5 --weights {name}",
    )
    assert model.provenance["policy"] == f"fast with {name}"
    assert model.provenance["positions"] == 2 * 19


def test_cards_without_a_model_have_none() -> None:
    assert model_for(CardSet.parse("BBBBB")) is None


def test_a_model_values_a_board_with_no_turns_left_at_nothing() -> None:
    model = ValueModel(tuple(1.0 for _ in FEATURES), tuple(1.0 for _ in CONTROLS), {})
    board = [2.0] * len(BOARD_FEATURES)
    assert model.value(board, 0) == 0.0
    weights = model.weights
    assert model.value(board, 10) == pytest.approx(
        sum(w * x for w, x in zip(weights, model_inputs(board, 10), strict=True))
    )


def test_a_weights_file_of_another_layout_is_refused() -> None:
    model = ValueModel(tuple(0.0 for _ in FEATURES), tuple(0.0 for _ in CONTROLS), {"seed": 1})
    data = model.to_json()
    assert ValueModel.from_json(json.loads(json.dumps(data))) == model
    with pytest.raises(InvalidInput, match="version"):
        ValueModel.from_json({**data, "version": 0})
    with pytest.raises(InvalidInput, match="other features"):
        ValueModel.from_json({**data, "features": data["features"][1:]})


def test_fit_recovers_a_linear_score_to_go() -> None:
    def truth(board: list[float], turns: int) -> float:
        inputs = model_inputs(board, turns)
        return 3.0 + 2.0 * inputs[FEATURES.index("token")] - inputs[FEATURES.index("nature")]

    samples = []
    for i in range(400):
        board = [float((i * (k + 3)) % 7 + (i % (k + 2))) for k in range(len(BOARD_FEATURES))]
        turns = 1 + i % 19
        samples.append(Position(tuple(board), turns, truth(board, turns)))
    result = fit(samples, ridge=0.0)
    assert result.error < 1e-6
    assert len(result.weights) == len(FEATURES) + len(CONTROLS)
    assert result.weights[FEATURES.index("token")] == pytest.approx(2.0)
    assert result.weights[FEATURES.index("nature")] == pytest.approx(-1.0)


def test_positions_are_labelled_with_the_score_to_go() -> None:
    found = game_positions(players=2, seed=3, cards="AAAAA", policy="greedy")
    # Each seat's first 19 moves have turns to come.
    assert len(found) == 2 * 19
    assert sorted({p.turns_after for p in found}) == list(range(1, 20))
    assert all(p.to_go >= 0 for p in found)
    # Each seat's first move has no board before it; the later ones have their previous.
    assert sum(p.before is None for p in found) == 2
    assert found[2].before == found[0].board


def test_training_on_a_tiny_seeded_run_is_the_same_every_time() -> None:
    def tiny(seed: int) -> ValueModel:
        command = f"python -m engine.players.train --seed {seed}"
        return train(players=2, games=2, seed=seed, cards="AAAAA", policy="greedy", command=command)

    first = tiny(7)
    assert tiny(7) == first
    assert first.provenance["positions"] == 2 * 2 * 19
    assert first.provenance["explore"] > 0
    assert tiny(8).weights != first.weights


def test_the_fast_player_uses_the_model_only_where_one_was_trained() -> None:
    def choices(cards: str, policy: str) -> list[object]:
        states = [state_at_turn(4, seed, 24, cards=cards) for seed in range(8)]
        return [choose(state, policy, seed=1) for state in states]

    assert choices("AAAAA", "fast") != choices("AAAAA", "opportunity")
    assert choices("BBBBB", "fast") == choices("BBBBB", "opportunity")
