"""Names as the bot writes them: invisible characters gone, look-alikes told apart, mention
syntax and markdown harmless."""

from __future__ import annotations

import re

import pytest

from bot.game.messages import GameSummary, Player, lobby_message, my_games_message
from bot.game.names import MAX_NAME, clean, safe, seat_names

MENTION = re.compile(r"<@[!&]?\d+>|<#\d+>|</[^>]+:\d+>|@everyone|@here")
"""What Discord renders as a live mention."""


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Sam", "Sam"),
        ("Sa\u200bm", "Sam"),  # zero-width space
        ("\u2066Sam\u2069", "Sam"),  # bidi isolates
        ("Sam\ufe0f", "Sam"),  # a variation selector
        ("S\u0061\u0301m", "S\u00e1m"),  # composed
        ("  Sam \n Ray ", "Sam Ray"),
        ("\u3164", "?"),  # a filler that shows as nothing
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),  # an emoji sequence
        ("x" * 200, "x" * MAX_NAME),
    ],
)
def test_clean_drops_what_shows_as_nothing(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_equal_names_get_their_seat_numbers() -> None:
    assert seat_names(["Sam", "Ada", "Sa\u200bm", "sam"]) == [
        "Sam (seat 1)",
        "Ada",
        "Sam (seat 3)",
        "sam (seat 4)",
    ]
    assert seat_names(["Sam", "Ada"]) == ["Sam", "Ada"]


def test_a_name_copying_a_told_apart_name_still_differs() -> None:
    names = seat_names(["Sam", "Sam", "Sam (seat 2)"])
    assert len(set(names)) == 3


@pytest.mark.parametrize(
    "name",
    ["<@123456789012345678>", "<@!123456789012345678>", "<@&123456789012345678>",
     "<#123456789012345678>", "</cascadia play:123456789012345678>", "@everyone", "@HERE"],
)  # fmt: skip
def test_mention_syntax_never_survives(name: str) -> None:
    text = safe(name)
    assert not MENTION.search(text), text
    assert text.replace("\u200b", "") == name.replace("@HERE", "@HERE")
    assert not MENTION.search(Player(1, name).shown)


def test_every_text_with_names_neutralises_mentions() -> None:
    impostor = Player(5, "<@999999999999999999>")
    lobby = lobby_message([Player(1, "Ada"), impostor], host_id=1, cards="random")
    assert "<@" not in lobby.replace("<\u200b@", "")
    games = my_games_message(
        [GameSummary(1, 2, started=True, your_turn=False, to_move="@everyone", round=3)]
    )
    assert "@everyone" not in games


def test_markdown_is_still_escaped() -> None:
    assert safe("*star*") == "\\*star\\*"
