"""Every two habitats stay apart on a phone for colour-blind players: at the size a phone
shows an environment picture, where the patterns blur into their hex's colour, under
simulated deuteranopia, protanopia and tritanopia (and normal vision). The figures are in
docs/measurements.md, printed by ``benchmarks/colorblind.py``."""

from __future__ import annotations

import pytest

from benchmarks.colorblind import (
    MACHADO,
    MIN_DELTA_E,
    PHONE_WIDTH,
    pair_distances,
    pictures,
    simulate,
)


def test_the_simulation_is_machado_in_linear_rgb() -> None:
    # Greys stay grey (each row sums to 1) and pure red loses its hue to a deuteranope.
    for vision in MACHADO:
        grey = simulate((128, 128, 128), vision)
        assert all(abs(c - 128) < 1.5 for c in grey), (vision, grey)
    red = simulate((255, 0, 0), "deuteranopia")
    assert abs(red[0] - red[1]) < 40, red


@pytest.mark.parametrize("vision", [None, *MACHADO])
@pytest.mark.parametrize("picture", ["late game", "long line"])
def test_every_two_habitats_stay_apart_at_phone_size(vision: str | None, picture: str) -> None:
    hex_size, width = pictures()[picture]
    assert width > PHONE_WIDTH  # the phone scales it down
    close = {
        f"{a}-{b}": round(d, 1)
        for (a, b), d in pair_distances(vision, hex_size, width).items()
        if d < MIN_DELTA_E
    }
    assert not close, f"{vision or 'normal vision'}, {picture}: ΔE {close}"
