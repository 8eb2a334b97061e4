"""Player names in pictures: cleaned for display, each character drawn by a face that has
it, right-to-left text in its order and shaped, any string drawn within its room."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import positions
from render import bidi, render_environment, theme
from render.cmap import read_coverage
from render.fonts import FACES, SHAPING, coverage
from render.names import ELLIPSIS, MAX_CHARS, display_name, draw_line, fit_name, layout
from render.palette import new_image

FONTS = Path(__file__).resolve().parents[2] / "render" / "fonts"
DEJAVU, DROID, NANUM, DEVANAGARI = 0, 1, 2, 3
EMOJI = len(FACES) - 1


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Alice", "Alice"),
        ("e\u0301mile", "émile"),
        ("  Zoë \t\n Ελένη  ", "Zoë Ελένη"),
        ("B\u200bo\u200cb\u2060\ufeff", "Bob"),
        ("\u202eevil\u202c", "evil"),
        ("a\x00b\x07c\x1b[31m", "abc[31m"),
        ("\u3164\u115f", "?"),
        ("\ue000x", "x"),
        ("\ud800x", "x"),
        ("", "?"),
        (" \u200b ", "?"),
        ("안녕", "안녕"),
        ("\U0001e900x", "?x"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("a\u200d👍", "a👍"),
        ("❤\ufe0f", "❤"),
    ],
)
def test_names_are_cleaned_for_display(name: str, shown: str) -> None:
    assert display_name(name) == shown


def test_names_that_differ_only_in_invisible_characters_look_the_same() -> None:
    assert display_name("Sam") == display_name("S\u200ba\u2063m\u00ad") == "Sam"


def test_a_long_name_is_cut_before_layout() -> None:
    assert len(display_name("x" * 10_000)) == MAX_CHARS


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("Zoë Ελένη Жора", {DEJAVU}),
        ("محمد علي", {DEJAVU}),
        ("שרה כהן", {DEJAVU}),
        ("田中さくら", {DROID}),
        ("김민준", {NANUM}),
        ("प्रिया", {DEVANAGARI}),
        ("🦊👨\u200d👩\u200d👧👍🏽", {EMOJI}),
    ],
)
def test_each_script_is_drawn_by_a_face_that_has_it(text: str, faces: set[int]) -> None:
    line = layout(text, 22)
    assert {run.face for run in line.runs} == faces
    for run in line.runs:
        for char in run.text:
            if unicodedata.category(char) not in ("Cf", "Mn"):
                assert char in coverage(run.face), (char, run.face)


def test_spaces_digits_and_marks_stay_with_their_neighbours() -> None:
    # Droid Sans Fallback has a space but no Latin digits; the emoji face has digits (for
    # keycaps) but must not take a name's.
    line = layout("田中 2 🦊 3́", 22)
    assert [(run.text, run.face) for run in line.runs] == [
        ("田中 ", DROID),
        ("2 ", DEJAVU),
        ("🦊", EMOJI),
        (" 3́", DEJAVU),
    ]


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        # Right-to-left text split by an emoji: the runs go right to left.
        ("علي 🦊 حسن", [" حسن", "🦊", "علي "]),
        # A number after right-to-left text stays left to right, left of it.
        ("Alice علي 12", ["Alice ", "12", "علي "]),
        ("שרה 🎉", ["🎉", "שרה "]),
        ("Ann 🎉 Bo", ["Ann ", "🎉", " Bo"]),
    ],
)
def test_runs_are_in_visual_order(text: str, runs: list[str]) -> None:
    assert [run.text for run in layout(text, 22, shaping=True).runs] == runs


def test_bidi_levels() -> None:
    assert bidi.levels("ab אב") == [0, 0, 0, 1, 1]
    assert bidi.levels("אב ab") == [1, 1, 1, 2, 2]
    assert bidi.levels("אב 12") == [1, 1, 1, 2, 2]
    assert bidi.levels("ab 12") == [0] * 5
    assert bidi.levels("!!") == [0, 0]


def test_without_a_shaper_right_to_left_runs_are_reversed_and_joined() -> None:
    def covered(char: str) -> bool:
        return char in coverage(DEJAVU)

    assert bidi.visual_form("שלום", covered) == "םולש"
    assert bidi.visual_form("שָׁלוֹם", covered) == "םולש"
    assert bidi.visual_form("(12)", covered) == "(21)"
    # meem (initial), hah (medial), meem (medial), dal (final), drawn last letter first.
    assert bidi.visual_form("محمد", covered) == "\ufeaa\ufee4\ufea4\ufee3"
    # lam + alef is one ligature; alef does not join the letter after it.
    assert bidi.visual_form("لاب", covered) == "\ufe8f\ufefb"


@pytest.mark.skipif(not SHAPING, reason="Pillow here has no libraqm to shape with")
def test_arabic_is_shaped_into_joined_letters() -> None:
    joined = layout("محمد", 28, shaping=True)
    apart = layout("م ح م د", 28, shaping=True)
    unshaped = layout("محمد", 28, shaping=False)
    # Joined letters are narrower than the same letters apart, and the shaper's joining
    # matches the presentation forms of the fallback.
    assert joined.width < apart.width - 3 * layout(" ", 28).width
    assert abs(joined.width - unshaped.width) <= 2


@pytest.mark.parametrize("shaping", [True, False] if SHAPING else [False])
@pytest.mark.parametrize(
    "name",
    [
        "x" * 300,
        "Ελένη Παπαδοπούλου-Γεωργίου",
        "محمد بن عبد الله الهاشمي القرشي",
        "田中" * 40,
        "👨\u200d👩\u200d👧" * 30,
        "e\u0301" * 100,
    ],
)
def test_long_names_are_shortened_to_fit(name: str, shaping: bool) -> None:
    line = fit_name(name, 22, 138, shaping=shaping)
    assert line.width <= 138
    assert line.text.endswith(ELLIPSIS)
    kept = line.text[:-1].rstrip()
    assert display_name(name).startswith(kept)
    # Never between a letter and its mark, nor inside an emoji sequence.
    assert not kept.endswith("\u200d")
    assert display_name(name)[len(kept) : len(kept) + 1] not in ("\u0301", "\u200d")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60), st.integers(12, 30), st.integers(0, 300))
def test_any_string_draws_within_its_room(name: str, size: int, width: int) -> None:
    line = fit_name(name, size, width)
    assert line.width <= width or line.text == ELLIPSIS
    image = new_image(theme.PALETTE, (320, 60), theme.HEADER)
    left, top, right, bottom = draw_line(image, (10, 30), line, theme.TITLE)
    assert left <= right
    assert top <= bottom


def test_unusual_names_draw_in_environment_pictures() -> None:
    state = positions.late_four_player()
    for name in ("", "\x00\x01", "x" * 2000, "\u202e" * 50, "🦊" * 100, "\ud83e"):
        render_environment(state, 0, name=name, score=123)


def test_every_bundled_font_has_its_licence_beside_it() -> None:
    licences = " ".join(path.read_text() for path in FONTS.glob("LICENSE-*.txt"))
    fonts = sorted(path.name for path in FONTS.glob("*.ttf"))
    assert fonts == sorted(face.file for face in FACES)
    for font in fonts:
        assert font in licences, font


def test_the_character_maps_are_read_in_full() -> None:
    dejavu = read_coverage((FONTS / FACES[DEJAVU].file).read_bytes())
    assert all(char in dejavu for char in "AzÉßΩЖשمـ0?")
    assert "名" not in dejavu
    assert "\U0010fffd" not in dejavu
    droid = coverage(DROID)
    assert all(char in droid for char in "名前さくらカタカナ")
    assert "🦊" in coverage(EMOJI)
