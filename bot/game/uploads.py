"""Fitting a message's attachments into the channel's upload limit.

Discord refuses a whole message whose files add up to more than the server's upload limit
(``filesize_limit``: 10 MiB where the server is not boosted). The replay GIF is the one
large picture a message carries and the one a reader can do without (``/cascadia replay``
draws it again), so it is the one left out, with a note, rather than the post failing.
"""

from __future__ import annotations

import dataclasses

from bot.game.outbox import MAX_TEXT, Post
from i18n import N_, _, speaking

LEFT_OUT = N_(
    "\n(The replay GIF is too large for this channel's upload limit: `/cascadia replay` shows it.)"
)
"""The note on a message whose GIF was left out (in the message's language)."""


def fit_upload(post: Post, limit: int) -> Post:
    """``post`` with its GIF attachments left out (and a note said) when its attachments
    add up to more than ``limit`` bytes; as it is otherwise."""
    total = sum(len(a.data) for a in post.attachments)
    if total <= limit:
        return post
    kept = tuple(a for a in post.attachments if not a.name.endswith(".gif"))
    if len(kept) == len(post.attachments):
        return post
    with speaking(post.locale):
        text = post.text + _(LEFT_OUT)
    return dataclasses.replace(
        post, attachments=kept, text=text if len(text) <= MAX_TEXT else post.text
    )
