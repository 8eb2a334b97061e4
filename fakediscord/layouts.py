"""Message components as Discord checks and stores them, classic and Components V2.

A classic message carries up to five action rows (type 1) of buttons (2) or one select.
A message flagged IS_COMPONENTS_V2 (1 << 15) is its components: no ``content`` or
``embeds``; at the top level and in a container (17) go text displays (10), media galleries
(12), sections (9), files (13), separators (14) and action rows; at most 40 components in
all and 4000 characters of text. A gallery holds 1-10 items whose ``media.url`` is a link or
``attachment://<file name>`` of one of the message's files; Discord stores the latter as the
attachment's URL with its ``attachment_id``. Every component gets a numeric ``id`` in the
message's order when the bot gives none, as Discord numbers them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final

from fakediscord.protocol import JSON, ApiError, walk_components

if TYPE_CHECKING:
    from fakediscord.model import Attachment

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY = 1, 2, 9, 10, 11, 12
FILE, SEPARATOR, CONTAINER = 13, 14, 17
SELECTS: Final = frozenset({3, 5, 6, 7, 8})
LAYOUT: Final = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
"""What a V2 message and a container hold."""
MAX_V2_COMPONENTS: Final = 40
MAX_V2_TEXT: Final = 4000
MAX_GALLERY_ITEMS: Final = 10
MAX_MEDIA_DESCRIPTION: Final = 1024
MAX_ROWS: Final = 5
MAX_ROW_BUTTONS: Final = 5
MAX_LABEL: Final = 80
MAX_CUSTOM_ID: Final = 100


def _invalid(where: str, why: str) -> ApiError:
    return ApiError(400, 50035, f"Invalid Form Body: {where}: {why}")


def check(components: Sequence[JSON], *, v2: bool) -> None:
    """Refuse components Discord would refuse, as 400 50035 Invalid Form Body."""
    if v2:
        _check_layout(components, "components", LAYOUT | {CONTAINER})
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            raise _invalid("components", f"{count} components, more than {MAX_V2_COMPONENTS}")
        text = len(text_of(components))
        if text > MAX_V2_TEXT:
            raise _invalid("components", f"{text} characters of text, more than {MAX_V2_TEXT}")
        return
    if len(components) > MAX_ROWS:
        raise _invalid("components", f"at most {MAX_ROWS} action rows")
    for index, component in enumerate(components):
        where = f"components.{index}"
        if component.get("type") != ACTION_ROW:
            raise _invalid(
                where, f"type {component.get('type')} needs the flag IS_COMPONENTS_V2 (1 << 15)"
            )
        _check_row(component, where)


def _check_layout(components: Sequence[JSON], where: str, allowed: frozenset[int]) -> None:
    for index, component in enumerate(components):
        here = f"{where}.{index}"
        kind = component.get("type")
        if kind not in allowed:
            raise _invalid(here, f"component type {kind} is not allowed here")
        if kind == CONTAINER:
            children = component.get("components")
            if not isinstance(children, list) or not children:
                raise _invalid(here, "a container holds at least one component")
            _check_layout(children, f"{here}.components", LAYOUT)
        elif kind == TEXT_DISPLAY:
            if not isinstance(component.get("content"), str) or not component["content"]:
                raise _invalid(here, "a text display needs its content")
        elif kind == MEDIA_GALLERY:
            _check_gallery(component, here)
        elif kind == ACTION_ROW:
            _check_row(component, here)


def _check_gallery(component: JSON, where: str) -> None:
    items = component.get("items")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
        raise _invalid(where, f"a media gallery holds 1 to {MAX_GALLERY_ITEMS} items")
    for index, item in enumerate(items):
        media = item.get("media") if isinstance(item, dict) else None
        if not isinstance(media, dict) or not isinstance(media.get("url"), str):
            raise _invalid(f"{where}.items.{index}", "an item needs media with a url")
        description = item.get("description")
        if description is not None and len(str(description)) > MAX_MEDIA_DESCRIPTION:
            raise _invalid(
                f"{where}.items.{index}.description",
                f"must be {MAX_MEDIA_DESCRIPTION} or fewer in length",
            )


def _check_row(row: JSON, where: str) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not children:
        raise _invalid(where, "an action row holds at least one component")
    kinds = [c.get("type") for c in children]
    if kinds[0] in SELECTS:
        if len(kinds) != 1:
            raise _invalid(where, "a select fills its action row alone")
        return
    if any(k != BUTTON for k in kinds) or len(kinds) > MAX_ROW_BUTTONS:
        raise _invalid(where, f"an action row holds 1 to {MAX_ROW_BUTTONS} buttons or a select")
    for index, button in enumerate(children):
        if len(str(button.get("label") or "")) > MAX_LABEL:
            raise _invalid(f"{where}.components.{index}.label", f"at most {MAX_LABEL} characters")
        if len(str(button.get("custom_id") or "")) > MAX_CUSTOM_ID:
            raise _invalid(
                f"{where}.components.{index}.custom_id", f"at most {MAX_CUSTOM_ID} characters"
            )


def stored(components: Sequence[JSON], attachments: Sequence[Attachment]) -> list[JSON]:
    """The components as Discord keeps them: numbered, and each ``attachment://`` media
    resolved to the message's file of that name (400 50035 when it has none)."""
    kept = copy.deepcopy(list(components))
    by_name = {a.filename: a for a in attachments}
    used = {c["id"] for c in walk_components(kept) if isinstance(c.get("id"), int)}
    number = 0
    for component in walk_components(kept):
        if not isinstance(component.get("id"), int):
            number += 1
            while number in used:
                number += 1
            component["id"] = number
        for item in component.get("items", []) if component.get("type") == MEDIA_GALLERY else []:
            media = item["media"]
            url = media["url"]
            if url.startswith("attachment://"):
                found = by_name.get(url.removeprefix("attachment://"))
                if found is None:
                    raise _invalid("components", f"media {url} names no file of the message")
                item["media"] = _media(found)
            elif "attachment_id" in media:
                # An edit that sends back a stored item keeps its file when it still has it.
                held = next(
                    (a for a in attachments if str(a.id) == str(media["attachment_id"])), None
                )
                item["media"] = _media(held) if held is not None else {"url": url}
    return kept


def _media(attachment: Attachment) -> JSON:
    return {
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
        "attachment_id": str(attachment.id),
        "width": 1,
        "height": 1,
        "flags": 0,
        "loading_state": 2,
    }


def texts(components: Sequence[JSON]) -> Iterator[str]:
    """The text displays' contents, in the message's order."""
    for component in walk_components(components):
        if component.get("type") == TEXT_DISPLAY:
            yield str(component.get("content", ""))


def text_of(components: Sequence[JSON]) -> str:
    """Every text display's content, one after the other on its own lines."""
    return "\n".join(texts(components))


def gallery_of(components: Sequence[JSON]) -> list[JSON]:
    """Every media gallery item (``media`` and ``description``), in the message's order."""
    return [
        item
        for component in walk_components(components)
        if component.get("type") == MEDIA_GALLERY
        for item in component.get("items", [])
    ]
