"""The turn message's **Play** button, as the game posts it: its label and its custom id,
which carries only ids so that it works after a restart (the panel behind it is
:mod:`bot.panel`)."""

from __future__ import annotations

from i18n import N_

PLAY_LABEL = N_("Play")
"""The label of the button on turn messages that opens the panel (in English: translated where
the button is made, into the message's language)."""


def play_custom_id(game_id: int, turn: int) -> str:
    """The custom id of the **Play** button of ``game_id``'s turn ``turn``: it carries only
    ids, so the button works after a restart and knows when its turn has passed."""
    return f"cascadia:play:{game_id}:{turn}"


AGAIN_LABEL = N_("Play again")
"""The label of the button on a game's final message that opens the next game's lobby (in
English: translated where the button is made)."""


def again_custom_id(game_id: int) -> str:
    """The custom id of the **Play again** button of the finished game ``game_id``."""
    return f"cascadia:again:{game_id}"
