"""The turn panel's store: each player's draft of their turn, saved at every press."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.db.database import Record
from bot.game.errors import StalePanel
from bot.game.store import GameStore

_PANEL_COLUMNS = "game_id, user_id, turn, revision, version, draft, updated_at"


@dataclass(frozen=True)
class PanelRow:
    """A player's turn-panel draft: the choices so far (opaque text) for one turn of a game.

    ``revision`` is the game's revision the draft was made on; ``version`` goes up on every
    save, so a press on an older copy of the panel can be told apart.
    """

    game_id: int
    user_id: int
    turn: int
    revision: int
    version: int
    draft: str
    updated_at: datetime


class PanelStore(GameStore):
    """The panels' queries, over the game store."""

    async def get_panel(self, game_id: int, user_id: int) -> PanelRow | None:
        """The user's turn-panel draft in a game, if any."""
        q = f"SELECT {_PANEL_COLUMNS} FROM panels WHERE game_id = $1 AND user_id = $2"
        row = await self._fetchrow(q, game_id, user_id)
        return None if row is None else self._panel(row)

    async def save_panel(
        self,
        game_id: int,
        user_id: int,
        *,
        turn: int,
        revision: int,
        draft: str,
        expected_version: int | None,
    ) -> PanelRow:
        """Store the user's panel draft at the next version (bookkeeping: the game's revision
        stays). With ``expected_version``, only over that version: a press that lost a race
        with another raises :class:`StalePanel` and writes nothing. With ``None``, over
        whatever is there (opening a panel, closing a played one)."""
        values: tuple[object, ...] = (game_id, user_id, turn, revision, draft, self._stamp())
        # One statement each way, so that two presses cannot both build on one version.
        if expected_version is None:
            q = (
                "INSERT INTO panels (game_id, user_id, turn, revision, version, draft,"
                " updated_at) VALUES ($1, $2, $3, $4, 1, $5, $6)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET turn = excluded.turn,"
                " revision = excluded.revision, version = panels.version + 1,"
                " draft = excluded.draft, updated_at = excluded.updated_at"
                f" RETURNING {_PANEL_COLUMNS}"
            )
        else:
            q = (
                "UPDATE panels SET turn = $3, revision = $4, version = version + 1,"
                " draft = $5, updated_at = $6 WHERE game_id = $1 AND user_id = $2"
                f" AND version = $7 RETURNING {_PANEL_COLUMNS}"
            )
            values += (expected_version,)
        async with self._transaction() as db:
            row = await db.fetchrow(q, *values)
        if row is None and expected_version is not None:
            raise StalePanel(game_id, user_id, expected_version)
        return self._panel(row)

    def _panel(self, row: Record) -> PanelRow:
        return PanelRow(
            game_id=int(row["game_id"]),
            user_id=int(row["user_id"]),
            turn=int(row["turn"]),
            revision=int(row["revision"]),
            version=int(row["version"]),
            draft=str(row["draft"]),
            updated_at=self._moment(row["updated_at"]),
        )
