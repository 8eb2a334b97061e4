"""Turn messages as Components V2 layouts: one container with the words, the pictures and
the buttons.

A layout (:class:`discord.ui.LayoutView`) is flagged IS_COMPONENTS_V2 by discord.py: it has no
``content``, its words are a text display, its pictures a media gallery that refers to the
message's files as ``attachment://<name>``, each with its alt text, and its buttons an action
row inside the container. A button keeps its label and custom id, so the dynamic item the
cog registers for it (the panel's **Play**, the host's **Hand over**) answers it as ever.

Editing a layout means sending all of it again, so taking a button away rebuilds it from
:class:`Layout`, what the message was posted with, or from the message as Discord returns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.game.captions import Attachment
from i18n import _

ViewT = TypeVar("ViewT", bound=discord.ui.view.BaseView)

PICTURES = (".png", ".gif", ".jpg", ".jpeg", ".webp")
"""The files a gallery shows; any other file is shown as a file."""


@dataclass(frozen=True, slots=True)
class Layout:
    """What a layout message says and shows: its words and its files as (name, alt text),
    in order."""

    text: str
    files: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, text: str, attachments: Sequence[Attachment]) -> Layout:
        """The layout of a message with ``text`` and ``attachments``; a picture without a
        description of its own is described by its file name."""
        return cls(text, tuple((a.name, a.description or _described(a.name)) for a in attachments))

    @classmethod
    def read(cls, message: discord.Message) -> Layout | None:
        """The layout of a posted message, as Discord returns it; ``None`` for a classic one."""
        if not message.flags.components_v2:
            return None
        names = {a.id: a.filename for a in message.attachments}
        texts: list[str] = []
        files: list[tuple[str, str]] = []
        for component in _walk(message.components):
            if isinstance(component, discord.components.TextDisplay):
                texts.append(component.content)
            elif isinstance(component, discord.components.MediaGalleryComponent):
                for item in component.items:
                    name = names.get(item.media.attachment_id or 0)
                    if name is not None:
                        files.append((name, item.description or _described(name)))
            elif isinstance(component, discord.components.FileComponent):
                name = names.get(component.media.attachment_id or 0)
                if name is not None:
                    files.append((name, ""))
        return cls("\n".join(texts), tuple(files))

    def view(self, buttons: Sequence[tuple[str, str]]) -> discord.ui.LayoutView:
        """The layout with ``buttons`` (label, custom id) under the pictures."""
        items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(self.text)]
        pictures = [(n, d) for n, d in self.files if n.lower().endswith(PICTURES)]
        if pictures:
            gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
                *(discord.MediaGalleryItem(f"attachment://{n}", description=d) for n, d in pictures)
            )
            items.append(gallery)
        items.extend(
            discord.ui.File(f"attachment://{n}")
            for n, _alt in self.files
            if not n.lower().endswith(PICTURES)
        )
        if buttons:
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow(
                *(button(label, custom_id) for label, custom_id in buttons)
            )
            items.append(row)
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*items))
        return unheld(view)


def buttons_view(buttons: Sequence[tuple[str, str]]) -> discord.ui.View:
    """A classic message's ``buttons`` (label, custom id) as a view for sending or editing."""
    view = discord.ui.View(timeout=None)
    for label, custom_id in buttons:
        view.add_item(button(label, custom_id))
    return unheld(view)


def unheld(view: ViewT) -> ViewT:
    """``view``, stopped before it is sent, so that discord.py does not hold it.

    discord.py keeps every view it sends or edits in whose buttons it could dispatch, for as
    long as the bot runs when the view has no timeout: one view for each turn message. Nothing
    needs it: the dynamic items the cog registers answer the buttons by their custom ids. A
    stopped view is sent all the same and never kept."""
    view.stop()
    return view


def button(label: str, custom_id: str) -> discord.ui.Button[Any]:
    """A message's button (label, custom id); the dynamic item registered for its custom id
    answers a press, after a restart too."""
    return discord.ui.Button(label=label, custom_id=custom_id, style=discord.ButtonStyle.primary)


def _described(name: str) -> str:
    return _("picture {name}", name=name)


def _walk(components: Sequence[Any]) -> Sequence[Any]:
    found: list[Any] = []
    for component in components:
        found.append(component)
        found.extend(_walk(getattr(component, "children", ())))
    return found
