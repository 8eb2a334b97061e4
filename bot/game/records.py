"""The stored text forms of a game (its state, its move log) and the exported document.

A logged move is one turn (or one wipe): the text forms of its engine actions joined by
:data:`engine.MOVE_SEPARATOR` (a whole turn is ``str(move)`` of its :class:`engine.Move`), as
the store keeps it in ``moves.action``. The export is the JSON document ``/cascadia export``
attaches, and the record file a finished or ended game posts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.game.messages import Player
from bot.game.rows import GameRow, GameStatus, HintRow, MoveRow
from engine import (
    MOVE_SEPARATOR,
    Action,
    GameState,
    Hex,
    PlaceTile,
    PlaceToken,
    Progress,
    parse_action,
    progress_from_json,
    record_for,
    score_state,
    state_from_json,
    state_table,
    state_to_json,
)

EXPORT_VERSION = 1
"""The ``version`` of the exported document."""


def state_text(state: GameState) -> str:
    """The engine state as stored: compact JSON text, written once per change and kept both
    in the game row and in the outbox snapshot that announces it."""
    return json.dumps(state_to_json(state), separators=(",", ":"))


UNREADABLE = (ValueError, KeyError, TypeError, IndexError)
"""What :func:`read_state` raises on a stored text it cannot read (a damaged state)."""


def read_state(text: str) -> GameState:
    """The engine state back from its stored text (one of :data:`UNREADABLE` if damaged)."""
    return state_from_json(json.loads(text))


def read_progress(text: str) -> Progress:
    """How far the stored state's game is (whose turn, which round), without reading it all."""
    return progress_from_json(json.loads(text))


def move_text(actions: Sequence[Action]) -> str:
    """The logged text of one move made of ``actions``."""
    return MOVE_SEPARATOR.join(map(str, actions))


def move_actions(move: MoveRow) -> list[Action]:
    """The engine actions of one logged move (a whole turn, or a wipe)."""
    return [parse_action(a) for a in move.action.split(MOVE_SEPARATOR)]


def logged_actions(moves: Sequence[MoveRow]) -> list[Action]:
    """Every engine action of the log, in order: what replays the game from its seed."""
    return [action for move in moves for action in move_actions(move)]


def placed_hexes(tile_at: Hex, token_at: Hex | None) -> tuple[Hex, ...]:
    """Where one turn put its tile and token (one hex when both went to the same place)."""
    if token_at is None or token_at == tile_at:
        return (tile_at,)
    return (tile_at, token_at)


def last_placements(moves: Sequence[MoveRow], players: Sequence[Player]) -> list[tuple[Hex, ...]]:
    """Per seat, where that player's latest turn in the log put its tile and token (empty
    before their first turn): what their environment's picture rings, so that players
    catching up see each one's last move."""
    seats = {player.user_id: seat for seat, player in enumerate(players)}
    placed: list[tuple[Hex, ...]] = [() for _ in players]
    for move in moves:
        seat = seats.get(move.user_id)
        actions = move_actions(move)
        tile = next((a.at for a in actions if isinstance(a, PlaceTile)), None)
        if seat is None or tile is None:
            continue  # a wipe: the environment did not change
        token = next((a.at for a in actions if isinstance(a, PlaceToken)), None)
        placed[seat] = placed_hexes(tile, token)
    return placed


def export_file(document: dict[str, Any]) -> tuple[str, str]:
    """The file name and text of an exported game document (see :func:`export_document`):
    what ``/cascadia export`` sends and what the message ending a game attaches."""
    return (f"cascadia-game-{document['game']['id']}.json", json_text(document))


def json_text(data: Any) -> str:
    """``data`` as indented JSON text ending in a newline, for a file people may read."""
    return json.dumps(data, indent=2) + "\n"


def export_document(
    game: GameRow,
    players: Sequence[Player],
    state: GameState,
    moves: Sequence[MoveRow],
    hints: Sequence[HintRow] = (),
) -> dict[str, Any]:
    """A game as a JSON document: the game, its settings, players (with the computer player
    of a seat the computer plays), moves, the ``hints`` players asked for, ``table`` (every
    environment, in the table-json shape) with ``scores`` (its score sheet), and, once the
    game is over, ``seed`` and the replayable ``record``. Snowflake ids are strings, as in
    Discord's JSON."""
    names = tuple(p.name for p in players)
    document: dict[str, Any] = {
        "version": EXPORT_VERSION,
        "game": {
            "id": game.id,
            "guild_id": str(game.guild_id),
            "channel_id": str(game.channel_id),
            "status": game.status.value,
            "host_id": str(game.host_id),
            "created_at": game.created_at.isoformat(),
            "round": state.round,
            "turn": state.turn,
            "current": None if state.is_over else state.current,
        },
        "settings": {
            "cards": str(state.cards),
            "cards_chosen": game.cards,
            "players": state.players,
            "reminder_hours": game.reminder_hours,
        },
        "players": [
            {"seat": seat, "user_id": str(p.user_id), "name": p.name, "computer": p.computer}
            for seat, p in enumerate(players)
        ],
        "hints": [
            {
                "turn": hint.turn,
                "user_id": str(hint.user_id),
                "at": hint.created_at.isoformat(),
                "moves": [move.split(MOVE_SEPARATOR) for move in hint.moves],
            }
            for hint in hints
        ],
        "moves": [_move_entry(move) for move in moves],
        "table": state_table(state, names),
        "scores": score_state(state, names).to_json(),
    }
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        document["seed"] = state.seed
        document["record"] = record_for(state, logged_actions(moves), names).to_json()
    return document


def _move_entry(move: MoveRow) -> dict[str, Any]:
    """One move of the export; ``played_for`` says who chose a move its player did not."""
    entry: dict[str, Any] = {
        "seq": move.seq,
        "user_id": str(move.user_id),
        "at": move.created_at.isoformat(),
        "actions": move.action.split(MOVE_SEPARATOR),
    }
    if move.played_for is not None:
        entry["played_for"] = move.played_for
    return entry
