"""What happened since a player's own last turn, in a few short lines for a phone.

The game is replayed through the move log, from its seed (a few milliseconds for a whole game)
or from a state the caller knows, so each line says what the display held when the move was
made: whose move, the tile's habitats and the token taken, where each went, and the points the
move gained in the mover's score as the game shows it (:func:`engine.seat_score`), with the
nature token a keystone earned. Every move, the latest too, takes that one short form, so a list
read on a phone has one shape. Wipes get
their own line: a player's three-of-a-kind or nature-token wipe, and the four matching tokens
the display replaces by itself (overpopulation), which the log does not spell out: the engine
draws one token per emptied slot, so extra draws after a move are whole wipes of four.

The turn message that calls a player starts with :meth:`SinceLastTurn.text`; the lines are
reusable on their own (:meth:`SinceLastTurn.lines`), for a direct message say. The lines are
written in the reader's language (:func:`i18n.speaking`) when they are made: the game's, for
a turn message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.messages import Player, a_token, animals
from bot.game.records import move_actions
from bot.game.rows import MoveRow
from engine import (
    MOVE_SEPARATOR,
    Action,
    GameState,
    Hex,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Take,
    Tile,
    WipeThree,
    apply,
    new_game,
    score_state,
    seat_score,
)
from i18n import N_, _, _n
from render.words import habitat_word, wildlife_word

HEADING = "Since your last turn"
"""The words every such block starts with (part of the bot's contract with its players)."""
FIRST_HEADING = "Since the game began"
"""The heading before a player's first turn, when there is no last turn to count from."""
MAX_LINES = 8
"""Lines of moves and wipes at most: four players' worth of turns with their wipes. Older
ones give way to a count, the latest always shows."""

_PLAYED_FOR = {
    "vote": N_("skipped after a vote"),
    "host": N_("skipped by the host"),
    "computer": N_("played by the computer"),
}


@dataclass(frozen=True, slots=True)
class MoveLine:
    """One logged move of the game, in words: ``text`` for the move, then ``wiped`` for the
    display tokens it wiped (a three-of-a-kind or nature-token wipe, or the overpopulation
    it caused)."""

    seat: int
    text: str
    wiped: tuple[str, ...] = ()
    gain: int = 0
    """The points the move gained in its seat's score as the game shows it."""
    turn: bool = True
    """A whole turn (else a wipe at the start of one)."""


@dataclass(frozen=True, slots=True)
class SinceLastTurn:
    """What happened since ``seat``'s own last turn: the moves after it and the standings."""

    seat: int
    moves: tuple[MoveLine, ...]
    standings: str
    first: bool = False
    """The seat has not chosen a turn of its own yet: the moves since the start."""

    def lines(self) -> tuple[str, ...]:
        """One line per move (and per wipe), oldest first, all in the one short form (the
        latest is the last line, written like the others), capped at :data:`MAX_LINES`
        with a count of the older ones left out."""
        found: list[str] = []
        for move in self.moves:
            found.append(move.text)
            found.extend(move.wiped)
        if len(found) > MAX_LINES:
            dropped = len(found) - MAX_LINES + 1
            found = [
                _n("…{n} earlier line", "…{n} earlier lines", dropped),
                *found[-MAX_LINES + 1 :],
            ]
        return tuple(found)

    def text(self) -> str:
        """The heading, the lines (see :meth:`lines`) and the standings."""
        head = _("Since the game began:") if self.first else _("Since your last turn:")
        return "\n".join((head, *self.lines(), self.standings))


def since_last_turn(
    state: GameState,
    moves: Sequence[MoveRow],
    players: Sequence[Player],
    *,
    seat: int | None = None,
    known: tuple[int, GameState] | None = None,
) -> SinceLastTurn | None:
    """What happened since ``seat`` (default: the seat to move in ``state``) last chose a
    turn: ``None`` when nothing did (nobody has moved since, or a solo game).

    ``state`` gives the game's seed and cards (the moves are replayed from them) and the
    standings; ``moves`` is the game's whole log, ``players`` its seats in order. A turn
    played for the seat (skipped, or by the computer) is listed too: its player did not
    choose it. ``known`` is the game after the log's first ``n`` moves, when the caller has
    it (the game as loaded, before the move being committed): when only later moves are
    told, they are replayed from it instead of from the start. Raises :class:`ValueError`
    (or the engine's error) when the log does not lead to ``state``.
    """
    seat = state.current if seat is None else seat
    first, start = 0, new_game(players=state.players, seed=state.seed, cards=state.cards)
    if known is not None and _window_start(moves, players, seat) >= known[0]:
        first, start = known
    played = _replay(start, moves[first:], state)
    own = [
        i
        for i, (before, _after, actions, move) in enumerate(played)
        if before.current == seat and _whole_turn(actions) and move.played_for is None
    ]
    window = played[own[-1] + 1 :] if own else played
    if all(before.current == seat for before, *_ in window):
        return None  # nobody else has moved since (or ever, solo)
    lines = tuple(
        _line(before, after, actions, players[before.current], move.played_for)
        for before, after, actions, move in window
    )
    # Replayed from ``known``: the seat's last own turn came before it.
    mine = bool(own) or first > 0
    return SinceLastTurn(seat, lines, standings(state, players), first=not mine)


def _window_start(moves: Sequence[MoveRow], players: Sequence[Player], seat: int) -> int:
    """Where the moves after ``seat``'s last own turn begin, read from the log's users
    alone (0 when a user plays two seats, so the log does not say whose move is whose)."""
    users = [p.user_id for p in players]
    if len(set(users)) != len(users):
        return 0
    own = [
        i
        for i, move in enumerate(moves)
        if move.user_id == users[seat] and MOVE_SEPARATOR in move.action
        and move.played_for is None
    ]  # fmt: skip
    return own[-1] + 1 if own else 0


STANDINGS_HEAD = "Standings if it ended now, bonuses in:"
"""The standings' heading: the totals are those of ``/cascadia score``, the pictures and the
final result (majority bonuses in), so a player compares one number wherever it shows."""


def standings(state: GameState, players: Sequence[Player]) -> str:
    """The players best first with their totals if the game ended now (majority bonuses
    in, :func:`engine.score_state`), in one line, e.g.
    ``"Standings if it ended now, bonuses in: **Ada** 23 · **Bob** 20"``."""
    sheet = score_state(state)
    scores = [score.total for score in sheet.players]
    # Best first; a tie keeps seat order.
    order = sorted(range(state.players), key=lambda seat: -scores[seat])
    ranked = " · ".join(f"{players[s].shown} {scores[s]}" for s in order)
    return _("Standings if it ended now, bonuses in: {scores}", scores=ranked)


Played = tuple[GameState, GameState, list[Action], MoveRow]
"""One logged move as replayed: the state before it and after, its actions, its row."""


def _replay(start: GameState, moves: Sequence[MoveRow], state: GameState) -> list[Played]:
    """The logged ``moves`` played again from ``start`` (a whole game's in a few
    milliseconds: only the moves shown are scored and put in words); they must lead to
    ``state``."""
    current = start
    found = []
    for move in moves:
        before = current
        actions = move_actions(move)
        for action in actions:
            current = apply(current, action)
        found.append((before, current, actions, move))
    if (current.turn, current.draws, current.current) != (state.turn, state.draws, state.current):
        raise ValueError(f"the move log of {len(moves)} moves does not lead to the game's state")
    return found


def _whole_turn(actions: Sequence[Action]) -> bool:
    return any(isinstance(a, Take) for a in actions)


def _line(
    before: GameState,
    after: GameState,
    actions: Sequence[Action],
    player: Player,
    played_for: str | None,
) -> MoveLine:
    seat = before.current
    who = player.shown
    if played_for in _PLAYED_FOR:
        who = _("{name} ({how})", name=who, how=_(_PLAYED_FOR[played_for]))
    gain = seat_score(after, seat) - seat_score(before, seat)
    wipe = next((a for a in actions if isinstance(a, WipeThree | NatureWipe)), None)
    if wipe is not None:
        return _wipe_line(before, after, wipe, seat, who, gain)
    take = next(a for a in actions if isinstance(a, Take))
    place = next(a for a in actions if isinstance(a, PlaceTile))
    token_at = next(a for a in actions if isinstance(a, PlaceToken)).at
    tile = before.display_tiles[take.tile - 1]
    token = before.display_tokens[take.token - 1]
    if tile is None or token is None:
        raise ValueError(f"pair {take.tile} was empty")
    animal = wildlife_word(token)
    if token_at is not None:
        put = _("{token} on {at}", token=animal, at=token_at)
    else:
        put = _("{token} returned", token=animal)
    fields = {
        "who": who,
        "habitats": _habitats(tile),
        "token": a_token(token),
        "at": place.at,
        "put": put,
        "gain": f"{gain:+d}",
    }
    if take.free_choice:
        text = _("{who} took {habitats} with {token} (free choice): {at}, {put}, {gain}", **fields)
    else:
        text = _("{who} took {habitats} with {token}: {at}, {put}, {gain}", **fields)
    if token_at is not None and _keystone(before, place, tile, token_at):
        text = _("{line}, +1 nature token", line=text)
    # A turn draws one token per emptied pair (solo: two); more means overpopulation.
    refill = 0 if after.is_over else (2 if before.solo else 1)
    wiped = _overpopulation(before, after.draws - before.draws - refill, take.token - 1)
    return MoveLine(seat, text, wiped, gain)


def _wipe_line(
    before: GameState,
    after: GameState,
    wipe: WipeThree | NatureWipe,
    seat: int,
    who: str,
    gain: int,
) -> MoveLine:
    tokens = before.display_tokens
    if isinstance(wipe, WipeThree):
        species = before.three_of_a_kind()
        slots = [i for i, t in enumerate(tokens) if t is not None and t == species]
        if species is not None:
            text = _("{who} wiped {animals}", who=who, animals=animals(species, 3))
        else:
            text = _("{who} wiped three tokens", who=who)
    else:
        slots = [s - 1 for s in wipe.slots]
        names = ", ".join(wildlife_word(t) for s in slots if (t := tokens[s]) is not None)
        text = _("{who} spent a nature token to wipe {names}", who=who, names=names)
    wiped = _overpopulation(before, after.draws - before.draws - len(slots), *slots)
    return MoveLine(seat, text, wiped, gain, turn=False)


def _overpopulation(before: GameState, extra_draws: int, *replaced: int) -> tuple[str, ...]:
    """The overpopulation wipes a move caused, from its draws beyond its own (``replaced``:
    the 0-based slots it drew for): the first wiped the species of the tokens the move left
    in place, any further one four new tokens again."""
    wipes = max(extra_draws, 0) // 4
    if wipes == 0:
        return ()
    kept = {t for i, t in enumerate(before.display_tokens) if i not in replaced}
    species = next(iter(kept)) if len(kept) == 1 else None
    if species is not None:
        first = _("Overpopulation: {animals} wiped from the display", animals=animals(species, 4))
    else:
        first = _("Overpopulation: 4 matching tokens wiped from the display")
    lines = [first]
    lines.extend([_("Overpopulation again: 4 more wiped")] * (wipes - 1))
    return tuple(lines)


def _keystone(before: GameState, place: PlaceTile, tile: Tile, token_at: Hex) -> bool:
    """Whether the token went on a keystone tile (the new one or one already placed), which
    earns a nature token."""
    if token_at == place.at:
        return tile.keystone
    return before.current_player.environment[token_at].tile.keystone


def _habitats(tile: Tile) -> str:
    return "/".join(habitat_word(h) for h in tile.habitats)
