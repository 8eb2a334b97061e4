"""Achievements and solo scenarios: what a finished game earns beyond its score.

An achievement is read from one seat's final score-sheet column and board (and, for
``three-majorities``, every seat's largest corridors). A solo scenario fixes the five cards,
a target total and extra conditions; :func:`check_scenario` says which of them held. The
readings of the conditions that need one are in the rules notes (``docs/playing.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.components import CardSet, Habitat, Wildlife
from engine.environment import Environment, PlacedTile
from engine.game import GameState
from engine.hexes import Hex
from engine.scoring.elk import ELK_C_POINTS
from engine.scoring.fox import FOX_B_POINTS
from engine.scoring.salmon import SALMON_A_POINTS, runs
from engine.scoring.sheet import PlayerScore, ScoreSheet, final_scores
from engine.scoring.tokens import TokenGrid
from engine.summary import seat_names

Board = Mapping[Hex, PlacedTile]
"""One seat's final environment."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the end of a game: its score-sheet column and its board."""

    score: PlayerScore
    board: Board

    def tokens(self) -> dict[Hex, Wildlife]:
        """The wildlife token on each hex that holds one."""
        return {h: p.token for h, p in self.board.items() if p.token is not None}

    def counts(self) -> Counter[Wildlife]:
        """How many tokens of each wildlife the board holds."""
        return Counter(p.token for p in self.board.values() if p.token is not None)


@dataclass(frozen=True, slots=True)
class Achievement:
    """An achievement: its stable id, a short title and one sentence saying when it is
    earned."""

    id: str
    title: str
    description: str


def N_(text: str) -> str:
    """``text`` unchanged: marks an English text that people read for the bot's catalogs
    (the engine reads no catalog; the bot translates the text where it shows it)."""
    return text


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("score-80", N_("80 points"), N_("Finish a game with 80 points or more.")),
    Achievement("score-85", N_("85 points"), N_("Finish a game with 85 points or more.")),
    Achievement("score-90", N_("90 points"), N_("Finish a game with 90 points or more.")),
    Achievement("score-95", N_("95 points"), N_("Finish a game with 95 points or more.")),
    Achievement("score-100", N_("100 points"), N_("Finish a game with 100 points or more.")),
    Achievement("score-105", N_("105 points"), N_("Finish a game with 105 points or more.")),
    Achievement("score-110", N_("110 points"), N_("Finish a game with 110 points or more.")),
    Achievement(
        "no-nature-left", N_("Nature tokens all spent"), N_("End with no nature token left.")
    ),
    Achievement("no-bear", N_("No bear"), N_("End with no bear on your board.")),
    Achievement("no-elk", N_("No elk"), N_("End with no elk on your board.")),
    Achievement("no-salmon", N_("No salmon"), N_("End with no salmon on your board.")),
    Achievement("no-hawk", N_("No hawk"), N_("End with no hawk on your board.")),
    Achievement("no-fox", N_("No fox"), N_("End with no fox on your board.")),
    Achievement(
        "ten-of-one", N_("Ten of a kind"), N_("End with 10 or more tokens of one wildlife.")
    ),
    Achievement(
        "three-majorities",
        N_("Three majorities"),
        N_("In a game of 2 or more, hold the largest corridor (ties count) in 3 or more habitats."),
    ),
    Achievement(
        "five-every-habitat", N_("Five everywhere"), N_("A corridor of 5 or more in every habitat.")
    ),
    Achievement(
        "twelve-one-habitat", N_("A corridor of 12"), N_("A corridor of 12 or more in one habitat.")
    ),
    Achievement(
        "fifteen-one-habitat",
        N_("A corridor of 15"),
        N_("A corridor of 15 or more in one habitat."),
    ),
    Achievement(
        "ten-every-wildlife",
        N_("Ten from each"),
        N_("Score 10 or more from every one of the five cards."),
    ),
    Achievement(
        "twenty-two-wildlife", N_("Two twenties"), N_("Score 20 or more from two wildlife cards.")
    ),
    Achievement(
        "thirty-one-wildlife", N_("Thirty from one"), N_("Score 30 or more from one wildlife card.")
    ),
    Achievement(
        "five-nature", N_("Five nature tokens kept"), N_("End with 5 or more nature tokens left.")
    ),
    Achievement(
        "ten-nature", N_("Ten nature tokens kept"), N_("End with 10 or more nature tokens left.")
    ),
    Achievement(
        "no-keystone-completed",
        N_("Keystones bare"),
        N_("End with no wildlife on any keystone tile."),
    ),
    Achievement(
        "three-wildlife-kinds",
        N_("Three kinds only"),
        N_("End with exactly three kinds of wildlife."),
    ),
)
"""The 25 achievements, in the order of the project's research list (a stable order)."""

ACHIEVEMENT_IDS: tuple[str, ...] = tuple(a.id for a in ACHIEVEMENTS)
"""The ids of :data:`ACHIEVEMENTS`, in the same order."""

_MAJORITIES = 3
_KINDS = 3
_OF_ONE = 10


def _majorities(seat: int, corridors: Sequence[Mapping[Habitat, int]]) -> int:
    """Habitats where ``seat``'s largest corridor is non-empty and no other seat's is larger."""
    mine = corridors[seat]
    return sum(
        1
        for habitat in Habitat
        if mine.get(habitat, 0) > 0
        and all(other.get(habitat, 0) <= mine.get(habitat, 0) for other in corridors)
    )


def _earned(seat: Seat, corridors: Sequence[Mapping[Habitat, int]], index: int) -> dict[str, bool]:
    score = seat.score
    counts = seat.counts()
    sizes = [score.habitats.get(h, 0) for h in Habitat]
    points = [score.wildlife.get(w, 0) for w in Wildlife]
    nature = score.nature_tokens
    earned = {f"score-{p}": score.total >= p for p in (80, 85, 90, 95, 100, 105, 110)}
    earned["no-nature-left"] = nature == 0
    earned.update({f"no-{w.value}": counts[w] == 0 for w in Wildlife})
    earned.update(
        {
            "ten-of-one": max(counts.values(), default=0) >= _OF_ONE,
            "three-majorities": len(corridors) > 1 and _majorities(index, corridors) >= _MAJORITIES,
            "five-every-habitat": min(sizes) >= 5,
            "twelve-one-habitat": max(sizes) >= 12,
            "fifteen-one-habitat": max(sizes) >= 15,
            "ten-every-wildlife": min(points) >= 10,
            "twenty-two-wildlife": sum(p >= 20 for p in points) >= 2,
            "thirty-one-wildlife": max(points) >= 30,
            "five-nature": nature >= 5,
            "ten-nature": nature >= 10,
            "no-keystone-completed": not any(
                p.tile.keystone and p.token is not None for p in seat.board.values()
            ),
            "three-wildlife-kinds": len(counts) == _KINDS,
        }
    )
    return earned


def seat_achievements(scores: ScoreSheet, boards: Sequence[Board], seat: int) -> tuple[str, ...]:
    """The ids of the achievements seat ``seat`` earned, in :data:`ACHIEVEMENTS` order.

    ``scores`` is the final score sheet and ``boards`` every seat's final environment, in
    seat order (all are needed for ``three-majorities``).
    """
    corridors = [p.habitats for p in scores.players]
    earned = _earned(Seat(scores.players[seat], boards[seat]), corridors, seat)
    return tuple(a for a in ACHIEVEMENT_IDS if earned[a])


# Solo scenarios ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Condition:
    """One thing a scenario asks of the final board, in the project's short words."""

    words: str
    holds: Callable[[Seat], bool]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A solo scenario: its number, the five cards, the target total and extra conditions."""

    number: int
    cards: CardSet
    target: int
    extras: tuple[Condition, ...] = ()


@dataclass(frozen=True, slots=True)
class ScenarioCheck:
    """A solo game against one scenario: whether the cards and target and each extra held."""

    scenario: Scenario
    cards: bool
    target: bool
    extras: tuple[tuple[Condition, bool], ...]

    @property
    def met(self) -> bool:
        """Whether everything held."""
        return self.cards and self.target and all(held for _, held in self.extras)

    def lines(self) -> list[tuple[str, bool]]:
        """Every condition in words with whether it held: cards, target, then the extras."""
        scenario = self.scenario
        return [
            (f"cards {scenario.cards}", self.cards),
            (f"{scenario.target} points or more", self.target),
            *((condition.words, held) for condition, held in self.extras),
        ]


def _adjacent_tokens(seat: Seat, one: Wildlife, other: Wildlife) -> bool:
    tokens = seat.tokens()
    return any(
        wildlife == one and any(tokens.get(n) == other for n in hex_.neighbors())
        for hex_, wildlife in tokens.items()
    )


def _edges_touch(seat: Seat, one: Habitat, other: Habitat) -> bool:
    """Whether some edge showing ``one`` meets an edge showing ``other`` of the tile next to
    it (edges inside one split tile do not count)."""
    board = seat.board
    for hex_, placed in board.items():
        for direction, neighbour in enumerate(hex_.neighbors()):
            there = board.get(neighbour)
            if there is None:
                continue
            pair = {placed.edges[direction], there.edges[(direction + 3) % 6]}
            if pair == {one, other}:
                return True
    return False


def _fox_b_best(seat: Seat) -> int:
    """Foxes that earn fox B's most for one fox: three other species twice each around it."""
    tokens = seat.tokens()
    best = 0
    for hex_, wildlife in tokens.items():
        if wildlife != Wildlife.FOX:
            continue
        around = Counter(
            tokens[n] for n in hex_.neighbors() if n in tokens and tokens[n] != Wildlife.FOX
        )
        if sum(1 for c in around.values() if c >= 2) >= len(FOX_B_POINTS) - 1:
            best += 1
    return best


def _hawks_by_elk(seat: Seat) -> bool:
    """Whether every hawk has an elk on a hex next to it."""
    tokens = seat.tokens()
    return all(
        any(tokens.get(n) == Wildlife.ELK for n in hex_.neighbors())
        for hex_, wildlife in tokens.items()
        if wildlife == Wildlife.HAWK
    )


def _longest_run(seat: Seat) -> int:
    return max((len(run) for run in runs(TokenGrid(seat.tokens()))), default=0)


def _largest_elk_group(seat: Seat) -> int:
    groups = TokenGrid(seat.tokens()).groups(Wildlife.ELK)
    return max((len(group) for group in groups), default=0)


def _corridors_at_least(seat: Seat, size: int) -> int:
    return sum(1 for h in Habitat if seat.score.habitats.get(h, 0) >= size)


def _wildlife_points(seat: Seat, wildlife: Wildlife) -> int:
    return seat.score.wildlife.get(wildlife, 0)


_FIVE_NATURE = Condition(N_("5 or more nature tokens left"), lambda s: s.score.nature_tokens >= 5)
_THREE_SEVENS = Condition(
    N_("three habitats with a corridor of 7 or more"),
    lambda s: _corridors_at_least(s, 7) >= 3,
)

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(1, CardSet.parse("AAAAA"), 80),
    Scenario(2, CardSet.parse("BBBBB"), 80),
    Scenario(3, CardSet.parse("CCCCC"), 80),
    Scenario(4, CardSet.parse("DDDDD"), 85),
    Scenario(
        5,
        CardSet.parse("CDBBB"),
        85,
        (
            Condition(
                N_("3 foxes each scoring the fox card's best (7)"), lambda s: _fox_b_best(s) >= 3
            ),
        ),
    ),
    Scenario(
        6,
        CardSet.parse("DBCCB"),
        85,
        (
            Condition(
                N_("4 or more of every wildlife"),
                lambda s: all(s.counts()[w] >= 4 for w in Wildlife),
            ),
        ),
    ),
    Scenario(
        7,
        CardSet.parse("BCCDC"),
        90,
        (
            Condition(
                N_("20 or more hawk points"), lambda s: _wildlife_points(s, Wildlife.HAWK) >= 20
            ),
        ),
    ),
    Scenario(
        8,
        CardSet.parse("CBBAD"),
        90,
        (
            _FIVE_NATURE,
            Condition(
                N_("no bear next to an elk"),
                lambda s: not _adjacent_tokens(s, Wildlife.BEAR, Wildlife.ELK),
            ),
        ),
    ),
    Scenario(
        9,
        CardSet.parse("CADCB"),
        90,
        (
            Condition(
                N_("10 or more points from every wildlife"),
                lambda s: all(_wildlife_points(s, w) >= 10 for w in Wildlife),
            ),
            Condition(
                N_("a corridor of 5 or more in every habitat"),
                lambda s: _corridors_at_least(s, 5) == 5,
            ),
        ),
    ),
    Scenario(
        10,
        CardSet.parse("CBDBB"),
        95,
        (
            Condition(N_("60 or more wildlife points"), lambda s: s.score.wildlife_total >= 60),
            _THREE_SEVENS,
        ),
    ),
    Scenario(
        11,
        CardSet.parse("BAACA"),
        95,
        (
            Condition(
                N_("30 or more bear points"), lambda s: _wildlife_points(s, Wildlife.BEAR) >= 30
            ),
            Condition(
                N_("no forest edge against a river edge"),
                lambda s: not _edges_touch(s, Habitat.FOREST, Habitat.RIVER),
            ),
        ),
    ),
    Scenario(
        12,
        CardSet.parse("ABAAC"),
        95,
        (
            Condition(
                N_("a salmon run of 7 or more (the card's best)"),
                lambda s: _longest_run(s) >= len(SALMON_A_POINTS) - 1,
            ),
            Condition(
                N_("no elk on a tile showing forest"),
                lambda s: (
                    not any(
                        p.token == Wildlife.ELK and Habitat.FOREST in p.tile.habitats
                        for p in s.board.values()
                    )
                ),
            ),
            Condition(N_("a corridor of 12 or more"), lambda s: _corridors_at_least(s, 12) >= 1),
        ),
    ),
    Scenario(
        13,
        CardSet.parse("DCCBC"),
        100,
        (
            Condition(
                N_("an elk group of 8 or more (the card's best)"),
                lambda s: _largest_elk_group(s) >= len(ELK_C_POINTS) - 1,
            ),
            Condition(N_("5 or more hawks"), lambda s: s.counts()[Wildlife.HAWK] >= 5),
            Condition(N_("every hawk next to an elk"), _hawks_by_elk),
        ),
    ),
    Scenario(
        14,
        CardSet.parse("ACBAD"),
        100,
        (
            Condition(
                N_("no mountain edge against a prairie edge"),
                lambda s: not _edges_touch(s, Habitat.MOUNTAIN, Habitat.PRAIRIE),
            ),
            Condition(
                N_("no wetland edge against a river edge"),
                lambda s: not _edges_touch(s, Habitat.WETLAND, Habitat.RIVER),
            ),
            Condition(N_("35 or more habitat points"), lambda s: s.score.habitat_total >= 35),
        ),
    ),
    Scenario(
        15,
        CardSet.parse("ADADA"),
        100,
        (
            _FIVE_NATURE,
            _THREE_SEVENS,
            Condition(
                N_("20 or more points from two wildlife"),
                lambda s: sum(_wildlife_points(s, w) >= 20 for w in Wildlife) >= 2,
            ),
        ),
    ),
)
"""The 15 solo scenarios, by number."""


def check_scenario(
    scenario: Scenario, cards: CardSet, score: PlayerScore, board: Board
) -> ScenarioCheck:
    """A solo game's final column and board against ``scenario``: which conditions held."""
    seat = Seat(score, board)
    return ScenarioCheck(
        scenario,
        cards == scenario.cards,
        score.total >= scenario.target,
        tuple((condition, condition.holds(seat)) for condition in scenario.extras),
    )


def scenarios_met(cards: CardSet, scores: ScoreSheet, boards: Sequence[Board]) -> tuple[int, ...]:
    """The numbers of the scenarios a solo game met; none for a game of 2 or more."""
    if len(scores.players) != 1:
        return ()
    score, board = scores.players[0], boards[0]
    return tuple(
        s.number
        for s in SCENARIOS
        if s.cards == cards and check_scenario(s, cards, score, board).met
    )


@dataclass(frozen=True, slots=True)
class SeatAchievements:
    """One seat's achievements and (solo) scenarios met, as ``achievements`` prints them."""

    name: str
    achievements: tuple[str, ...]
    scenarios: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """This seat as in the ``achievements`` output."""
        return {
            "name": self.name,
            "achievements": list(self.achievements),
            "scenarios": list(self.scenarios),
        }


def game_achievements(
    cards: CardSet, players: Sequence[tuple[str, Environment, int]]
) -> tuple[SeatAchievements, ...]:
    """Every seat's achievements of a finished game given as ``(name, board, nature tokens)``
    in seat order (the table-json shape), scored here by :func:`final_scores`."""
    scores = final_scores(cards, players)
    boards = [board for _, board, _ in players]
    solo = scenarios_met(cards, scores, boards)
    return tuple(
        SeatAchievements(score.name, seat_achievements(scores, boards, seat), solo)
        for seat, score in enumerate(scores.players)
    )


def state_achievements(
    state: GameState, names: Sequence[str] | None = None
) -> tuple[SeatAchievements, ...]:
    """Every seat's achievements of a finished game state (the same as the table's)."""
    return game_achievements(
        state.cards,
        [
            (name, seat.environment, seat.nature_tokens)
            for name, seat in zip(seat_names(state, names), state.seats, strict=True)
        ],
    )
