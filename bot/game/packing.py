"""The packed forms of a finished game kept for good (see
:meth:`~bot.stores.Store.compact_finished`): its move log as one zlib'd JSON document, and on
SQLite its state text zlib'd. Both come back exactly as they went in, or raise
:class:`PackDamaged`."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from datetime import datetime

from bot.game.rows import MoveRow

PACK_VERSION = 1
"""The version of the packed log's format: ``{"version": 1, "moves": [[seq, user_id,
action, created_at, played_for], ...]}``, the time in ISO text with microseconds."""

_LEVEL = 9
"""zlib's level: packing is done once a game, unpacking is as fast at any level."""

DAMAGED_STATE = "(a packed state that cannot be unpacked)"
"""What a game row's ``state`` reads when its packed state cannot be unpacked: text that no
reader of states parses, so the game is reported damaged like one with a damaged state text."""


class PackDamaged(ValueError):
    """Packed bytes that cannot be unpacked; the message says why."""


def pack_moves(moves: Sequence[MoveRow]) -> bytes:
    """The move log ``moves`` (one game's, in order) packed."""
    rows = [
        [m.seq, m.user_id, m.action, m.created_at.isoformat(timespec="microseconds"), m.played_for]
        for m in moves
    ]
    document = {"version": PACK_VERSION, "moves": rows}
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), _LEVEL)


def unpack_moves(game_id: int, packed: bytes) -> list[MoveRow]:
    """The move log of game ``game_id`` back from :func:`pack_moves`."""
    try:
        document = json.loads(zlib.decompress(packed))
        if document["version"] != PACK_VERSION:
            raise PackDamaged(f"a packed log of version {document['version']!r}")
        return [
            MoveRow(game_id, int(seq), int(user), str(action), _moment(at), played_for)
            for seq, user, action, at, played_for in document["moves"]
        ]
    except PackDamaged:
        raise
    except (zlib.error, ValueError, KeyError, TypeError) as error:
        raise PackDamaged(f"{type(error).__name__}: {error}") from None


def pack_state(text: str) -> bytes:
    """A state text packed."""
    return zlib.compress(text.encode(), _LEVEL)


def unpack_state(packed: bytes) -> str:
    """A state text back from :func:`pack_state`."""
    try:
        return zlib.decompress(packed).decode()
    except (zlib.error, UnicodeDecodeError) as error:
        raise PackDamaged(f"{type(error).__name__}: {error}") from None


def _moment(text: object) -> datetime:
    moment = datetime.fromisoformat(str(text))
    if moment.utcoffset() is None:
        raise ValueError(f"a naive time: {text!r}")
    return moment
