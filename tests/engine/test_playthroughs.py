"""Golden playthroughs: one whole seeded game per player count, action by action.

Each game is played by the engine's random player (:func:`engine.players.random_game`) and
written out as text under ``tests/engine/golden/``: the setup, every action's text form with
a one-line summary of the state after it, then the final score sheet and environments. Any
change to the setup, the draws, the refills, the rules or the scoring changes a file, so a
refactor cannot silently give every future game other tiles and tokens.

The files change only on purpose: run the tests with ``CASCADIA_REGEN_GOLDEN=1`` and read
the diff. A failing comparison writes what it got beside the file as ``NAME.actual.txt``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GameState, PlaceToken, Take, Tile, Wildlife, apply, new_game, score_state
from engine.players import random_game
from engine.scoring.sheet import PlayerScore
from tests.golden import assert_matches_golden

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

GAMES = [(1, 11, "family"), (2, 12, "ABCDA"), (3, 13, "intermediate"), (4, 14, "random")]
"""Players, seed and cards of each golden game: both variants, fixed letters and a seeded
random choice of cards."""


def _tile(tile: Tile | None) -> str:
    return str(tile) if tile is not None else "-"


def _token(token: Wildlife | None) -> str:
    return token.letter if token is not None else "-"


def _display(state: GameState) -> str:
    return " ".join(
        f"[{_tile(tile)} {_token(token)}]"
        for tile, token in zip(state.display_tiles, state.display_tokens, strict=True)
    )


def state_line(state: GameState) -> str:
    """One line: round, whose turn and phase, the display, what is held, bag, stack and the
    seats' nature tokens (and, solo, the discards)."""
    parts = [
        f"r{state.round} p{state.current + 1} {state.phase}",
        _display(state),
    ]
    if state.held_tile is not None or state.held_token is not None:
        parts.append(f"held {_tile(state.held_tile)} {_token(state.held_token)}")
    parts.append("bag " + ".".join(map(str, state.bag.counts)))
    parts.append(f"stack {state.tiles_left}")
    parts.append("nature " + " ".join(str(seat.nature_tokens) for seat in state.seats))
    if state.solo:
        parts.append(f"discarded {len(state.discarded_tiles)}")
    return " | ".join(parts)


def _score_line(score: PlayerScore) -> str:
    wildlife = " ".join(f"{w.letter}{points}" for w, points in score.wildlife.items())
    habitats = " ".join(
        f"{h.letter}{size}+{score.habitat_bonus.get(h, 0)}" for h, size in score.habitats.items()
    )
    return (
        f"{score.name}: wildlife {wildlife} = {score.wildlife_total}; "
        f"habitats {habitats} = {score.habitat_total}; "
        f"nature {score.nature_tokens}; total {score.total}"
    )


def playthrough(players: int, seed: int, cards: str) -> str:
    """The golden text of the game ``random_game`` plays with these settings."""
    end, actions = random_game(players=players, seed=seed, cards=cards)
    state = new_game(players=players, seed=seed, cards=cards)
    lines = [
        f"# {players} {'player' if players == 1 else 'players'}, seed {seed}, "
        f"cards {cards} -> {state.cards}, played by engine.players.random_game",
        "# each line: number, seat acting, action | then: round, seat to act, phase | display "
        "pairs [tile token] | held | bag b.e.s.h.f | tiles in the stack | nature tokens by seat"
        + (" | tiles discarded" if players == 1 else ""),
        f"setup starters {', '.join(state.starters)}; first p{state.first_player + 1}",
        f"      {state_line(state)}",
    ]
    width = max(len(str(action)) for action in actions)
    for number, action in enumerate(actions, start=1):
        actor = state.current
        state = apply(state, action)
        lines.append(f"{number:3} p{actor + 1} {action!s:<{width}} | {state_line(state)}")
    if state != end:
        raise AssertionError("replaying the actions did not reach random_game's end state")
    sheet = score_state(state)
    lines.append(f"# final after {len(actions)} actions (habitats: largest corridor+bonus)")
    lines += [_score_line(score) for score in sheet.players]
    lines.append("ranking " + ", ".join(sheet.ranking))
    lines += [
        f"environment p{seat + 1}: {player.environment.text()}"
        for seat, player in enumerate(state.seats)
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("players", "seed", "cards"), GAMES, ids=lambda v: str(v))
def test_playthrough_matches_golden(players: int, seed: int, cards: str) -> None:
    path = GOLDEN_DIR / f"players-{players}.txt"
    assert_matches_golden(path, playthrough(players, seed, cards), what="playthrough")


def test_the_golden_games_use_every_kind_of_action() -> None:
    actions = [
        action
        for players, seed, cards in GAMES
        for action in random_game(players=players, seed=seed, cards=cards)[1]
    ]
    kinds = {type(action).__name__ for action in actions}
    assert kinds == {"WipeThree", "NatureWipe", "Take", "PlaceTile", "PlaceToken"}
    assert any(isinstance(a, Take) and a.free_choice for a in actions)
    assert any(isinstance(a, PlaceToken) and a.at is None for a in actions)
