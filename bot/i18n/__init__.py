"""The bot's words in other languages: catalogs read at run time, one lookup.

The English text is the message id. Each language's catalog is a gettext ``.po`` file,
``bot/i18n/locales/<language>/LC_MESSAGES/cascadia.po``, read with Babel when first asked for;
nothing is compiled. A locale is Discord's (``de``, ``fr``, ``en-US``, ``pt-BR``): its language
picks the catalog, and a language without one reads English. ``en-XA`` is a pseudo-locale that
wraps and lengthens every translatable text, so tests can see any text that escapes
translation or a layout that breaks with longer words.

Placeholders are ``{name}`` fields, filled in after translation with :meth:`str.format`; a
translation keeps every one of the English text's.
"""

from __future__ import annotations

import string
from functools import cache
from importlib.resources import files

from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("de", "fr")
"""The languages with a catalog; English needs none. Adding one is its catalog and this line."""

PSEUDO = "en-XA"
"""The pseudo-locale: every translatable text wrapped in ``⟦ ⟧`` and lengthened by a third."""

DOMAIN = "cascadia"


def language(locale: str | None) -> str | None:
    """The catalog language for a Discord locale (``"de"`` for ``de``, ``"fr"`` for ``fr``),
    or ``None`` when English is read (no locale, English, or a language without a catalog)."""
    if not locale:
        return None
    lang = locale.split("-")[0].lower()
    return lang if lang in LANGUAGES else None


@cache
def catalog(lang: str) -> dict[str, str]:
    """A language's translations, English text to translated text (untranslated and fuzzy
    entries left out, so those read English)."""
    path = files(__name__).joinpath("locales", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with path.open("rb") as po:
        messages = read_po(po, locale=lang, domain=DOMAIN)
    return {
        str(m.id): str(m.string)
        for m in messages
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        if not m.fuzzy
    }


def lookup(text: str, locale: str | None) -> str | None:
    """The translation of ``text`` for ``locale``, or ``None`` when there is none (English,
    a language without a catalog, or a text the catalog lacks)."""
    if locale == PSEUDO:
        return pseudo(text)
    lang = language(locale)
    if lang is None:
        return None
    return catalog(lang).get(text)


def translate(text: str, locale: str | None, /, **fields: object) -> str:
    """``text`` in the language of ``locale`` (English when there is no translation), with
    ``fields`` filled into its ``{name}`` placeholders when any are given."""
    translated = lookup(text, locale) or text
    return translated.format(**fields) if fields else translated


def pseudo(text: str) -> str:
    """``text`` wrapped and lengthened by a third, placeholders and markup untouched."""
    return f"⟦{text}{'~' * (len(text) // 3)}⟧"


def placeholders(text: str) -> set[str]:
    """The names of the ``{name}`` fields in ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
