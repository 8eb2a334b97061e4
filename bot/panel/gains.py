"""What each choice of a turn is worth, as the turn panel shows it: the engine's incremental
score change of every place and every token target (:class:`engine.MoveScorer`), ordered
best first.

A gain is the change of the player's own score over the whole move: wildlife cards, largest
corridors, nature tokens (a free choice costs one) and, solo, the corridor bonus. The majority
bonuses are left out, as they depend on the other players' corridors (the Check step shows
them, from two whole score sheets).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import GameState, Hex, MoveScorer, PositionGain, Take


@dataclass(frozen=True, slots=True)
class TokenOptions:
    """The token step's options: each target with the whole move's gain, best first, and the
    gain of returning the token to the bag."""

    targets: tuple[tuple[Hex, int], ...]
    returned: int


def _order(gain: PositionGain) -> tuple[int, int, int, Hex]:
    return (-gain.gain, -gain.tile_gain, gain.at.distance(Hex(0, 0)), gain.at)


def place_gains(before: GameState, take: Take) -> list[PositionGain]:
    """Every place the taken tile may go, with its best rotation, the tile's corridor change
    and the best whole move there; best first (then nearest the centre, then by position,
    so that the order is stable). ``before`` is the state before the take."""
    return sorted(MoveScorer(before).positions(take), key=_order)


def rotation_gain(before: GameState, take: Take, at: Hex, rotation: int) -> int:
    """What the taken tile adds to the corridors at ``at`` turned by ``rotation``."""
    scorer = MoveScorer(before)
    tile = before.display_tiles[take.tile - 1]
    if tile is None:
        raise ValueError(f"pair {take.tile} has no tile")
    return scorer.corridors.gain(tile, at, rotation)


def token_options(before: GameState, take: Take, at: Hex, rotation: int) -> TokenOptions:
    """The token's targets once the tile is at ``at`` turned ``rotation``, best first, and
    what returning it gives."""
    found = MoveScorer(before).token_targets(take, at, rotation)
    returned = next(t.gain for t in found if t.at is None)
    targets = sorted(
        ((t.at, t.gain) for t in found if t.at is not None),
        key=lambda target: (-target[1], target[0] != at, target[0]),
    )
    return TokenOptions(tuple(targets), returned)
