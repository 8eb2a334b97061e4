"""The turn panel's values, without Discord: the steps, the presses, what a step offers, and
the :class:`Draft` of a player's choices with the move it makes.

A :class:`Draft` holds a player's choices for one turn (it is stored between presses, so a
restart resumes at the same step); :func:`work_out` applies them, and on Confirm
:func:`actions` are what is played (a wipe alone, or :meth:`Draft.move`). What each step
offers and how a press moves the draft on are :mod:`bot.panel.steps`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from bot.game.messages import play_command
from engine import (
    Action,
    GameState,
    Hex,
    IllegalAction,
    InvalidInput,
    Move,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Reason,
    Take,
    WipeThree,
    apply,
)
from i18n import N_

PAGE_SIZE = 25
"""Discord shows at most this many options in a select."""

DIRECTION_NAMES = (
    N_("east"),
    N_("north-east"),
    N_("north-west"),
    N_("west"),
    N_("south-west"),
    N_("south-east"),
)
"""The six sides of a hex in the engine's direction order (English: translate each where it
is shown)."""

Style = Literal["primary", "secondary", "success", "danger"]


class Step(StrEnum):
    """Where the panel stands."""

    PAIR = "pair"
    FREE = "free"
    """Free choice: a tile select and a token select (a nature token is spent)."""
    NATURE_WIPE = "nature-wipe"
    """Which display tokens a nature token wipes."""
    WIPE = "wipe"
    """A wipe chosen, waiting for its Confirm (it draws new tokens, so it is played alone)."""
    WHERE = "where"
    TURN = "turn"
    TOKEN = "token"
    CHECK = "check"


class Verb(StrEnum):
    """What a press asks for; the view puts it in the component's custom id."""

    PAIR = "pair"
    FREE = "free"
    FREE_TILE = "ftile"
    FREE_TOKEN = "ftoken"
    WIPE_THREE = "wipe3"
    NATURE_WIPE = "nwipe"
    SUGGEST = "suggest"
    WIPE_SLOTS = "nslots"
    WHERE = "where"
    MORE = "more"
    LEFT = "left"
    RIGHT = "right"
    NEXT = "next"
    TOKEN = "token"
    RETURN = "return"
    BACK = "back"
    CONFIRM = "confirm"
    CANCEL = "cancel"


@dataclass(frozen=True, slots=True)
class Press:
    """One press on the panel: a verb, with the button's argument or the select's values."""

    verb: Verb
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Button:
    """A button the step offers."""

    verb: Verb
    label: str
    arg: str = ""
    style: Style = "secondary"


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a select: the value sent back, its label and a description."""

    value: str
    label: str
    description: str = ""
    default: bool = False


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu the step offers."""

    verb: Verb
    placeholder: str
    options: tuple[Option, ...]
    min_values: int = 1
    max_values: int = 1


@dataclass(frozen=True)
class Offer:
    """What a step shows: text lines, selects (one row each) and rows of buttons, and what
    the picture draws: ``shown`` (the state with the move so far) and the hexes to ring."""

    step: Step
    lines: tuple[str, ...]
    selects: tuple[Select, ...]
    buttons: tuple[tuple[Button, ...], ...]
    shown: GameState
    highlight: tuple[Hex, ...] = ()

    @property
    def text(self) -> str:
        """The step's text, the text equivalent of its picture and choices included."""
        return "\n".join(self.lines)

    def verbs(self) -> set[Verb]:
        """Every verb a press on this step may carry."""
        found = {s.verb for s in self.selects} | {b.verb for row in self.buttons for b in row}
        return found


@dataclass(frozen=True, slots=True)
class Draft:
    """A player's choices for one turn so far (the step follows from them)."""

    tile: int | None = None
    """The display slot (1-4) of the tile taken."""
    token: int | None = None
    """The display slot of the token taken (another than ``tile``: a free choice)."""
    free: bool = False
    """Free choice chosen: the tile and token are picked apart."""
    nature_wipe: bool = False
    """Choosing which tokens a nature token wipes."""
    wipe: tuple[int, ...] | None = None
    """A wipe waiting for Confirm: ``()`` the three-of-a-kind wipe, else the slots."""
    at: Hex | None = None
    rotation: int = 0
    turned: bool = False
    """The rotation is settled (Next on the Turn step, or a single-habitat tile)."""
    token_at: Hex | None = None
    token_done: bool = False
    """The token step is answered (``token_at`` ``None``: returned to the bag)."""
    page: int = 0
    """The page of places shown on the Where step."""
    planned: tuple[str, str] | None = None
    """A plan made while waiting: the tile (its text form) and the token taken, so that
    when the turn comes the same pair can be found again in the display, wherever it is."""

    @property
    def step(self) -> Step:
        """The step these choices lead to."""
        if self.wipe is not None:
            return Step.WIPE
        if self.nature_wipe:
            return Step.NATURE_WIPE
        if self.tile is None or self.token is None:
            return Step.FREE if self.free else Step.PAIR
        if self.at is None:
            return Step.WHERE
        if not self.turned:
            return Step.TURN
        if not self.token_done:
            return Step.TOKEN
        return Step.CHECK

    def move(self) -> Move:
        """The whole move these choices make, once they reach the Check step;
        :class:`IllegalAction` before that."""
        if self.step is not Step.CHECK or self.tile is None or self.token is None:
            raise IllegalAction(Reason.WRONG_PHASE, "the move is not complete yet")
        if self.at is None:
            raise IllegalAction(Reason.WRONG_PHASE, "the tile has no place yet")
        return Move(self.tile, self.token, self.at, self.rotation, self.token_at)

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "tile": self.tile,
            "token": self.token,
            "free": self.free,
            "nature_wipe": self.nature_wipe,
            "wipe": None if self.wipe is None else list(self.wipe),
            "at": None if self.at is None else str(self.at),
            "rotation": self.rotation,
            "turned": self.turned,
            "token_at": None if self.token_at is None else str(self.token_at),
            "token_done": self.token_done,
            "page": self.page,
            **({} if self.planned is None else {"planned": list(self.planned)}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Draft:
        """Read the stored form back (raises :class:`InvalidInput` on a malformed one)."""
        try:
            wipe = data.get("wipe")
            at = data.get("at")
            token_at = data.get("token_at")
            planned = data.get("planned")
            return cls(
                tile=_optional_slot(data.get("tile")),
                token=_optional_slot(data.get("token")),
                free=bool(data.get("free", False)),
                nature_wipe=bool(data.get("nature_wipe", False)),
                wipe=None if wipe is None else tuple(int(s) for s in wipe),
                at=None if at is None else Hex.parse(str(at)),
                rotation=int(data.get("rotation", 0)) % 6,
                turned=bool(data.get("turned", False)),
                token_at=None if token_at is None else Hex.parse(str(token_at)),
                token_done=bool(data.get("token_done", False)),
                page=max(0, int(data.get("page", 0))),
                planned=None if planned is None else (str(planned[0]), str(planned[1])),
            )
        except (TypeError, ValueError, AttributeError) as error:
            raise InvalidInput(f"not a stored panel: {error}") from None

    def dumps(self) -> str:
        """The stored form as JSON text."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Draft:
        """Read :meth:`dumps` back."""
        try:
            data = json.loads(text)
        except ValueError:
            raise InvalidInput("not a stored panel") from None
        if not isinstance(data, dict):
            raise InvalidInput("not a stored panel")
        return cls.from_json(data)


def _optional_slot(value: object) -> int | None:
    if value is None:
        return None
    slot = int(str(value))
    if slot not in (1, 2, 3, 4):
        raise ValueError(f"slot {slot}")
    return slot


# --- what the choices lead to -------------------------------------------------------------


@dataclass(frozen=True)
class Worked:
    """The states a draft leads to, as far as it goes."""

    before: GameState
    taken: GameState | None = None
    placed: GameState | None = None
    after: GameState | None = None

    @property
    def latest(self) -> GameState:
        """The furthest state reached."""
        return self.after or self.placed or self.taken or self.before


def work_out(before: GameState, draft: Draft) -> Worked:
    """Apply the draft's choices to ``before`` (the player's view of the game); raises the
    engine's error if a stored choice is no longer legal."""
    if draft.tile is None or draft.token is None:
        return Worked(before)
    taken = apply(before, Take(draft.tile, draft.token))
    if draft.at is None:
        return Worked(before, taken)
    placed = apply(taken, PlaceTile(draft.at, draft.rotation))
    if not draft.token_done:
        return Worked(before, taken, placed)
    after = apply(placed, PlaceToken(draft.token_at))
    return Worked(before, taken, placed, after)


def actions(draft: Draft) -> tuple[Action, ...]:
    """The engine actions Confirm plays: a wipe alone, or the whole turn."""
    if draft.wipe is not None:
        return (WipeThree(),) if not draft.wipe else (NatureWipe(draft.wipe),)
    return draft.move().actions()


def command_text(draft: Draft) -> str:
    """The ``/cascadia`` command that plays the same move."""
    if draft.wipe is not None:
        named = " ".join(map(str, draft.wipe))
        return "/cascadia wipe" + (f" tokens:{named}" if named else "")
    if draft.tile is None or draft.token is None or draft.at is None:
        return ""
    return play_command(Move(draft.tile, draft.token, draft.at, draft.rotation, draft.token_at))
