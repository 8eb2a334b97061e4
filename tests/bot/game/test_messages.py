"""The bot's texts, built from engine states by pure functions: who they mention, and the
cases the golden transcripts do not show (ties, singulars, limits, the computer's seconds).

The words themselves are pinned whole by the golden transcripts of seeded games
(``tests/bot/game/golden``, made by :mod:`tests.bot.game.test_golden`), not by phrases here."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from discord.utils import escape_markdown as discord_escape_markdown

from bot.game import messages
from bot.game.hooks import ReminderLevel
from bot.game.markdown import escape_markdown
from bot.game.messages import GameSummary, Player
from engine import (
    CardSet,
    GameState,
    NatureWipe,
    Wildlife,
    WipeThree,
    new_game,
    play_turn,
    turn_actions,
)
from engine.scoring.sheet import final_scores

ADA = Player(101, "Ada")
BOB = Player(202, "Bob")
PLAYERS = (ADA, BOB)


def _mentions(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@!?(\d+)>", text)]


def _first_turn(state: GameState) -> tuple[GameState, tuple[object, ...]]:
    """Pair 1, tile on the first free place, token returned."""
    tile_at = state.current_player.environment.frontier()[0]
    after = play_turn(state, pair=1, tile_at=tile_at, rotation=0, token_at=None)
    return after, turn_actions(1, tile_at, 0, None)


@pytest.mark.parametrize(
    ("wildlife", "text"),
    [(Wildlife.BEAR, "bears"), (Wildlife.ELK, "elk"), (Wildlife.SALMON, "salmon"),
     (Wildlife.HAWK, "hawks"), (Wildlife.FOX, "foxes")],
)  # fmt: skip
def test_plural(wildlife: Wildlife, text: str) -> None:
    assert messages.plural(wildlife) == text


def test_shown_name_escapes_markdown() -> None:
    assert Player(1, "*star*").shown == "**\\*star\\***"


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ("ABCDA", "Bear A · Elk B · Salmon C · Hawk D · Fox A"),
        ("family", "Family card for all wildlife"),
    ],
)
def test_cards_text(cards: str, text: str) -> None:
    assert messages.cards_text(CardSet.parse(cards)) == text


def test_turn_message_mentions_only_the_next_player() -> None:
    before = new_game(players=2, seed=5, cards="A")
    after, actions = _first_turn(before)
    upcoming = PLAYERS[after.current]
    text = messages.turn_message(before, after, actions, PLAYERS)  # type: ignore[arg-type]
    assert _mentions(text) == [upcoming.user_id]


def test_describe_turn_token_on_the_new_keystone() -> None:
    # Seed 14 shows a keystone with its own species: placing both earns a nature token.
    before = new_game(players=2, seed=14, cards="A")
    pair = next(
        slot
        for slot, (tile, token) in enumerate(
            zip(before.display_tiles, before.display_tokens, strict=True), start=1
        )
        if tile is not None and tile.keystone and token in tile.wildlife
    )
    tile_at = before.current_player.environment.frontier()[0]
    text = messages.describe_turn(before, turn_actions(pair, tile_at, 0, tile_at), ADA)
    assert text.endswith("on it, earning a nature token.")


@pytest.mark.parametrize(
    ("word", "text"), [("elk", "an elk"), ("salmon", "a salmon"), ("forest tile", "a forest tile")]
)
def test_article(word: str, text: str) -> None:
    assert messages.article(word) == text


def test_describe_turn_needs_a_whole_turn() -> None:
    state = new_game(players=2, seed=5, cards="A")
    with pytest.raises(ValueError, match="not a whole turn"):
        messages.describe_turn(state, [WipeThree()], ADA)


def test_wipe_message_pings_nobody() -> None:
    state = new_game(players=2, seed=24, cards="A")
    assert _mentions(messages.wipe_message(state, WipeThree(), ADA)) == []
    assert _mentions(messages.wipe_message(state, NatureWipe((1, 3)), ADA)) == []


def test_start_message_calls_the_first_player() -> None:
    state = new_game(players=2, seed=5, cards="ABCDA")
    text = messages.start_message(state, PLAYERS)
    assert _mentions(text) == [PLAYERS[state.current].user_id]


def test_start_message_with_a_computer_first_mentions_nobody() -> None:
    state = new_game(players=2, seed=5, cards="A")
    computer = Player(-1, "Computer (fast)", computer="fast")
    players = tuple(computer if seat == state.current else ADA for seat in range(2))
    assert _mentions(messages.start_message(state, players)) == []


@pytest.mark.parametrize(("seconds", "words"), [(2.0, "2 seconds"), (1.0, "1 second"),
                                               (0.5, "0.5 seconds")])  # fmt: skip
def test_computer_choice_says_when_and_how_long_strong_thinks(seconds: float, words: str) -> None:
    assert f" {words} " in messages.computer_choice_text(seconds)


def test_game_over_message_ranks_and_calls_everyone() -> None:
    state = new_game(players=2, seed=5, cards="A")
    sheet = final_scores(
        state.cards,
        [
            (p.name, s.environment, s.nature_tokens)
            for p, s in zip(PLAYERS, state.seats, strict=True)
        ],
    )
    text = messages.game_over_message("Last move.", sheet, PLAYERS, pinged={101, 202})
    assert sorted(_mentions(text)) == [ADA.user_id, BOB.user_id]
    # One who turned the channel ping off is named instead.
    quiet = messages.game_over_message("Last move.", sheet, PLAYERS, pinged={202})
    assert _mentions(quiet) == [BOB.user_id]
    assert "**The game is over.** **Ada** <@202>" in quiet
    assert text.startswith("Last move.\n**The game is over.**")
    # Tied on points and nature tokens: they share the place, as the picture shows it.
    assert "1. **Ada**: 10 points" in text
    assert "1. **Bob**: 10 points" in text
    assert "Shared victory: **Ada**, **Bob**!" in text


def test_reminders_get_firmer() -> None:
    since = datetime(2024, 5, 1, tzinfo=UTC)
    texts = [messages.reminder_message(level, BOB, since) for level in ReminderLevel]
    assert all(_mentions(t) == [BOB.user_id] for t in texts)
    assert all(f"<t:{int(since.timestamp())}:R>" in t for t in texts)
    assert len(set(texts)) == 3


def test_lobby_message_mentions_nobody() -> None:
    text = messages.lobby_message(PLAYERS, host_id=ADA.user_id, cards="random")
    assert _mentions(text) == []


def test_status_message() -> None:
    state = new_game(players=2, seed=5, cards="A")
    since = datetime(2024, 5, 1, tzinfo=UTC)
    text = messages.status_message(state, PLAYERS, turn_started_at=since)
    assert _mentions(text) == []


def test_preview_message_shows_the_change() -> None:
    text = messages.preview_message(4, 17)
    assert "This move would score +4; your total if it ended now would be 17, bonuses in." in text
    assert "score +0;" in messages.preview_message(0, 3)


def test_hint_says_what_its_order_ranks_by() -> None:
    # The fast player's order: a move with fewer points now may set up more for later.
    text = messages.hint_message([("/cascadia play a", 4), ("/cascadia play b", 3), ("/c", 4)])
    lines = text.splitlines()
    assert "what each move sets up for later" in lines[0]
    assert lines[1:4] == [
        "1. `/cascadia play a` (+4 points now)",
        "2. `/cascadia play b` (+3 points now)",
        "3. `/c` (+4 points now)",
    ]


def test_host_left_message_pings_the_new_host_unless_they_turned_pings_off() -> None:
    text = messages.host_left_message(ADA, BOB, ping=True)
    assert text == "**Ada** left the lobby. <@202> is the host now: press **Start** when ready."
    assert _mentions(messages.host_left_message(ADA, BOB, ping=False)) == []
    assert "**Bob** is the host now" in messages.host_left_message(ADA, BOB, ping=False)


def test_settings_message_says_one_hour_in_the_singular() -> None:
    assert messages.settings_message(1, changed=True).startswith("Saved. Reminders: after 1 hour ")


def test_my_games_marks_your_turn_first() -> None:
    games = [
        GameSummary(1, 10, True, False, "Bob", 3),
        GameSummary(1, 11, True, True, "Ada", 5),
        GameSummary(1, 12, False, False, None, None),
    ]
    lines = messages.my_games_message(games).splitlines()
    assert lines[1] == "<#11>: **your turn** (round 5)"
    assert len(lines) == 4


def test_my_games_fits_in_one_message_however_many() -> None:
    waiting = [GameSummary(1, 10**18 + n, True, False, "Bob" * 10, 3) for n in range(60)]
    turns = [GameSummary(1, 2 * 10**18 + n, True, True, "Ada", 5) for n in range(60)]
    ended = [GameSummary(1, 3 * 10**18, False, False, None, None, ended=True)]
    text = messages.my_games_message([*waiting, *ended, *turns])
    assert len(text) <= 2000
    lines = text.splitlines()
    assert all("**your turn**" in line for line in lines[1:-1])
    shown = len(lines) - 2
    assert lines[-1] == f"…and {121 - shown} more ({60 - shown} of them your turn)."
    few = messages.my_games_message([*turns[:2], *ended])
    assert few.splitlines()[-1] == f"<#{3 * 10**18}>: ended"


def test_help_fits_in_one_message_and_names_every_command() -> None:
    text = messages.help_message()
    assert len(text) <= 2000, f"{len(text)} characters: Discord takes at most 2000"
    assert "**Remove computer**" in text
    assert text.index("**Play**") < text.index("/cascadia play"), "the buttons come first"
    for button in ("Next", "Confirm", "Back", "Cancel", "Free choice", "Wipe 3", "Add"):
        assert f"**{button}**" in text
    for command in (
        "new", "join", "leave", "start", "play", "preview", "wipe", "board", "status", "score",
        "settings", "end", "mygames", "export", "skip", "notify", "hint", "history", "replay",
        "stats", "server", "leaderboard", "league",
    ):  # fmt: skip
        assert f"/cascadia {command}" in text


@pytest.mark.parametrize(
    "text",
    ["Ada", "*bold*", "__under__", "a_b", "~~x~~", "||spoiler||", "`code`", "back\\slash",
     "> quote", "# heading", "- item", "[link](https://example.com)",
     "see https://example.com/a_b_c", "<https://example.com/_x_>", "Sam (2)", "Zoë ✨"],
)  # fmt: skip
def test_escape_markdown_is_discords(text: str) -> None:
    assert escape_markdown(text) == discord_escape_markdown(text)


def test_a_passed_turn_links_to_the_latest_turn_message() -> None:
    link = "https://discord.com/channels/1/2/3"
    text = messages.turn_passed_text(link)
    assert f"[latest turn]({link})" in text
    assert text.count(link) == 1
    assert "](" not in messages.turn_passed_text()


def test_a_jump_url_names_the_message_or_only_its_channel() -> None:
    from bot.game.markdown import jump_url

    assert jump_url(1, 2, 3) == "https://discord.com/channels/1/2/3"
    assert jump_url(1, 2) == "https://discord.com/channels/1/2"
