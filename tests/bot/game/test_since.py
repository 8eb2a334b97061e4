"""What happened since a player's last turn, replayed from the move log."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from bot.game.captions import environment_score
from bot.game.messages import Player, plural
from bot.game.records import move_text
from bot.game.rows import MoveRow
from bot.game.since import HEADING, MAX_LINES, STANDINGS_HEAD, since_last_turn, standings
from engine import (
    Action,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Take,
    WipeThree,
    apply,
    choose,
    new_game,
    score_state,
    seat_score,
)

NAMES = ("Ada", "Bob", "Cy", "Di")
WHEN = datetime(2026, 1, 1, tzinfo=UTC)
LINE = re.compile(
    r"^\*\*\w+\*\*( \([a-z ]+\))? took [a-z]+(/[a-z]+)? with an? [a-z]+( \(free choice\))?: "
    r"-?\d+,-?\d+, [a-z]+ (on -?\d+,-?\d+|returned), [+-]\d+(, \+1 nature token)?$"
)
"""The one form of every move's line, the latest too."""


def _players(count: int) -> tuple[Player, ...]:
    return tuple(Player(100 + seat, NAMES[seat]) for seat in range(count))


class Table:
    """A game played move by move, logged as the store logs it."""

    def __init__(self, players: int, seed: int) -> None:
        self.state = new_game(players=players, seed=seed, cards="AAAAA")
        self.moves: list[MoveRow] = []
        self.players = _players(players)

    def log(self, actions: Sequence[Action], played_for: str | None = None) -> None:
        user = self.players[self.state.current].user_id
        for action in actions:
            self.state = apply(self.state, action)
        self.moves.append(
            MoveRow(1, len(self.moves) + 1, user, move_text(actions), WHEN, played_for)
        )

    def turn(self, played_for: str | None = None, *, policy: str = "greedy") -> None:
        """One whole turn (after the three-of-a-kind wipe, when the policy wants it)."""
        actions = choose(self.state, policy, seed=len(self.moves))
        if isinstance(actions[0], WipeThree):
            self.log(actions)
            actions = choose(self.state, policy, seed=len(self.moves))
        self.log(actions, played_for)

    def since(self) -> str | None:
        found = since_last_turn(self.state, self.moves, self.players)
        return None if found is None else found.text()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_round_lists_every_move_since_the_start(players: int) -> None:
    table = Table(players, seed=3)
    for _ in range(players - 1):
        table.turn()
    text = table.since()
    assert text is not None
    head, *lines, last = text.split("\n")
    # A public message: no "your last turn (none yet)" before a player has had one.
    assert head == "Since the game began:"
    assert len(lines) == players - 1
    assert all(LINE.match(line) for line in lines), lines
    assert last.startswith(f"{STANDINGS_HEAD} ")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_later_rounds_list_the_others_moves_since_the_players_own_turn(players: int) -> None:
    table = Table(players, seed=5)
    for _ in range(2 * players + 1):
        table.turn()
    text = table.since()
    assert text is not None
    head, *lines, _ = text.split("\n")
    assert head == f"{HEADING}:"
    assert len(lines) == players - 1
    mover = table.state.current
    shown = {p.shown for i, p in enumerate(table.players) if i != mover}
    assert {line.split(" took ")[0] for line in lines} == shown


def test_solo_has_nothing_since() -> None:
    table = Table(1, seed=3)
    table.turn()
    table.turn()
    assert table.since() is None


def test_before_anyone_moved_there_is_nothing_since() -> None:
    assert Table(3, seed=3).since() is None


def test_the_exact_words_of_a_turn() -> None:
    table = Table(2, seed=11)
    state = table.state
    tile, token = state.display_tiles[0], state.display_tokens[0]
    assert tile is not None
    assert token is not None
    at = state.current_player.environment.frontier()[0]
    table.log([Take(1, 1), PlaceTile(at, 0), PlaceToken(None)])
    found = since_last_turn(table.state, table.moves, table.players)
    assert found is not None
    (move,) = found.moves
    mover = table.players[state.current].shown
    habitats = "/".join(h.value for h in tile.habitats)
    gain = seat_score(table.state, state.current) - seat_score(state, state.current)
    article = "an" if token.value[0] in "aeiou" else "a"
    assert move.gain == gain
    assert move.text == (
        f"{mover} took {habitats} with {article} {token.value}: {at}, {token.value} returned,"
        f" {gain:+d}"
    )


def test_a_three_of_a_kind_wipe_has_its_line() -> None:
    # Seed 1 shows three matching tokens after some turns (found once, checked here).
    table = Table(3, seed=1)
    while table.state.three_of_a_kind() is None:
        table.turn()
    species = table.state.three_of_a_kind()
    assert species is not None
    table.log([WipeThree()])
    table.turn()
    text = table.since()
    assert text is not None
    assert f"** wiped 3 {plural(species)}" in text, text


def test_a_nature_token_wipe_names_the_tokens() -> None:
    table = Table(2, seed=2)
    while table.state.current_player.nature_tokens == 0:
        table.turn(policy="fast")
    tokens = table.state.display_tokens
    table.log([NatureWipe((1, 3))])
    table.turn()
    text = table.since()
    assert text is not None
    assert f"spent a nature token to wipe {tokens[0]}, {tokens[2]}" in text, text


def test_overpopulation_after_a_turn_is_said() -> None:
    table = Table(3, seed=2)
    for _ in range(19):
        table.turn()
    before = table.state
    table.turn()
    # One token refills the emptied pair; seed 2's twentieth turn drew four more.
    assert table.state.draws - before.draws == 5
    text = table.since()
    assert text is not None
    assert re.search(
        r"\nOverpopulation: 4 (bears|elk|salmon|hawks|foxes) wiped from the display\n", text
    )


def test_a_skipped_turn_says_so_and_counts_as_news_to_its_player() -> None:
    table = Table(3, seed=7)
    for _ in range(3):
        table.turn()  # Ada, Bob, Cy: one round
    first = table.state.current
    table.turn(played_for="vote")  # the first player's turn, skipped
    table.turn()
    table.turn()
    assert table.state.current == first
    found = since_last_turn(table.state, table.moves, table.players)
    assert found is not None
    # Since the turn the player chose: the rest of round 1, their skipped turn, round 2.
    assert len(found.moves) == 5
    skipped = found.moves[2]
    assert skipped.seat == first
    assert f"{table.players[first].shown} (skipped after a vote) took " in skipped.text


def test_a_computer_seat_is_named_like_anyone() -> None:
    table = Table(2, seed=7)
    table.players = (table.players[0], Player(-1, "Computer (fast)", computer="fast"))
    while table.state.current != 1:
        table.turn()
    table.turn()
    found = since_last_turn(table.state, table.moves, table.players)
    assert found is not None
    assert found.moves[-1].text.startswith("**Computer (fast)** took ")


def test_four_players_with_long_absences_are_capped_keeping_the_latest() -> None:
    table = Table(4, seed=9)
    table.turn()
    mover = table.state.current
    for _ in range(12):
        table.turn(played_for="vote" if table.state.current == mover else None)
    found = since_last_turn(table.state, table.moves, table.players, seat=mover)
    assert found is not None
    lines = found.lines()
    assert len(lines) == MAX_LINES
    assert re.match(r"…\d+ earlier lines", lines[0])
    latest = found.moves[-1]
    assert lines[-1] == (latest.wiped[-1] if latest.wiped else latest.text)
    assert len(found.text()) < 1000


WIPE = re.compile(
    r"^(\*\*\w+\*\* (wiped 3 [a-z]+|wiped three tokens|spent a nature token to wipe [a-z, ]+)"
    r"|Overpopulation: 4 [a-z ]+ wiped from the display|Overpopulation again: 4 more wiped"
    r"|…\d+ earlier lines?)$"
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_line_the_latest_too_has_one_short_form(players: int) -> None:
    # A phone shows one shape of line: the move that made the message is no sentence apart.
    table = Table(players, seed=5)
    checked = 0
    for turn in range(6 * players):
        table.turn(played_for="vote" if turn % 7 == 6 else None, policy="fast")
        found = since_last_turn(table.state, table.moves, table.players)
        if found is None:
            continue
        lines = found.lines()
        moves = [line for line in lines if not WIPE.match(line)]
        assert moves, lines
        for line in moves:
            assert LINE.match(line), line
        assert moves[-1] == found.moves[-1].text
        assert found.text().split("\n")[1:-1] == list(lines)
        checked += 1
    assert checked >= 5 * players


def test_standings_are_best_first() -> None:
    table = Table(3, seed=4)
    for _ in range(9):
        table.turn()
    line = standings(table.state, table.players)
    points = [int(p) for p in re.findall(r" (\d+)(?: ·|$)", line)]
    assert points == sorted(points, reverse=True)
    assert line.count("**") == 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_known_state_gives_the_same_lines_as_the_whole_replay(players: int) -> None:
    table = Table(players, seed=12)
    for turn in range(3 * players + 1):
        known = (len(table.moves), table.state)
        # Now and then a turn skipped, so that a window reaches back past the known state.
        table.turn(played_for="vote" if turn % 5 == 4 else None)
        whole = since_last_turn(table.state, table.moves, table.players)
        quick = since_last_turn(table.state, table.moves, table.players, known=known)
        assert quick == whole


def test_a_user_in_two_seats_is_replayed_from_the_start() -> None:
    table = Table(3, seed=12)
    table.players = (table.players[0], table.players[1], table.players[0])
    for _ in range(4):
        known = (len(table.moves), table.state)
        table.turn()
    assert since_last_turn(table.state, table.moves, table.players, known=known) == since_last_turn(
        table.state, table.moves, table.players
    )


def test_the_standings_and_the_pictures_show_the_total_with_bonuses_as_score_does() -> None:
    # One number wherever a player compares: the standings, each board picture and
    # /cascadia score all give the total if the game ended now, majority bonuses in.
    table = Table(3, seed=4)
    with_bonus = False
    for _ in range(15):
        table.turn()
        sheet = score_state(table.state)
        totals = [score.total for score in sheet.players]
        line = standings(table.state, table.players)
        assert line.startswith(f"{STANDINGS_HEAD} ")
        shown = sorted(int(p) for p in re.findall(r" (\d+)(?: ·|$)", line))
        assert shown == sorted(totals)
        for seat in range(table.state.players):
            assert environment_score(table.state, seat) == totals[seat]
        with_bonus |= any(
            total != seat_score(table.state, seat) for seat, total in enumerate(totals)
        )
    assert with_bonus, "no majority bonus arose, so the test shows nothing"
