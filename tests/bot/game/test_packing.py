"""The packed forms of a game kept for good: any move log and any state text come back
exactly as they went in, and bytes that are not a packed form are refused, never misread."""

from __future__ import annotations

import json
import zlib
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.game.packing import PackDamaged, pack_moves, pack_state, unpack_moves, unpack_state
from bot.game.rows import MoveRow

GAME = 7

_moments = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
) | st.datetimes(timezones=st.just(timezone(timedelta(hours=2))))
_rows = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=2**63 - 1),
        st.text(),
        _moments,
        st.none() | st.sampled_from(["vote", "host", "computer"]),
    ),
    max_size=60,
)


@given(_rows)
def test_a_move_log_comes_back_the_same(rows: list[tuple[int, str, datetime, str | None]]) -> None:
    moves = [
        MoveRow(GAME, seq, user_id, action, at, played_for)
        for seq, (user_id, action, at, played_for) in enumerate(rows, start=1)
    ]
    back = unpack_moves(GAME, pack_moves(moves))
    assert back == moves
    assert [m.created_at.utcoffset() for m in back] == [m.created_at.utcoffset() for m in moves]


@given(st.text())
def test_a_state_text_comes_back_the_same(text: str) -> None:
    assert unpack_state(pack_state(text)) == text


def _packed(document: object) -> bytes:
    return zlib.compress(json.dumps(document).encode())


@pytest.mark.parametrize(
    ("packed", "why"),
    [
        (b"", "error"),
        (b"x\x9c!", "error"),
        (pack_state("[1, 2]"), "TypeError"),
        (_packed({"version": 2, "moves": []}), "version 2"),
        (_packed({"moves": []}), "KeyError"),
        (_packed({"version": 1, "moves": [[1, 2, "x", "yesterday", None]]}), "ValueError"),
        (_packed({"version": 1, "moves": [[1, 2, "x", "2024-05-01T12:00:00", None]]}), "naive"),
        (_packed({"version": 1, "moves": [[1, 2, "x"]]}), "ValueError"),
    ],
)
def test_what_is_not_a_packed_log_is_refused(packed: bytes, why: str) -> None:
    with pytest.raises(PackDamaged, match=why):
        unpack_moves(GAME, packed)


def test_what_is_not_a_packed_state_is_refused() -> None:
    with pytest.raises(PackDamaged, match="error"):
        unpack_state(pack_state("{}")[:-3])
    with pytest.raises(PackDamaged, match="UnicodeDecodeError"):
        unpack_state(zlib.compress(b"\xff\xfe"))
