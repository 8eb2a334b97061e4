"""The game's words in other languages: catalogs read at run time, and who is spoken to.

The English text is the message id. Each language's catalog is one gettext ``.po`` file,
``i18n/locales/<language>/LC_MESSAGES/cascadia.po``, read with Babel and compiled in memory the
first time the language is asked for; nothing compiled is kept in the repository. A locale is
Discord's (``de``, ``fr``, ``en-US``, ``pt-BR``): its language picks the catalog, and a language
without one reads English. ``en-XA`` is a pseudo-locale that wraps and lengthens every translatable
text, so tests can see any text that escapes translation or a layout that breaks with longer
words.

Texts are written in English where they are made, wrapped in :func:`_` (or :func:`_n` for a
count, :func:`N_` for a text translated later), and read in the language of whoever is spoken
to: :func:`speaking` names that reader for a block of code. A private answer speaks the
person's language, a public message the game's.

Placeholders are ``{name}`` fields, filled in after translation with :meth:`str.format`; a
translation keeps every one of the English text's. Numbers go through :func:`number`.
"""

from __future__ import annotations

import gettext
import io
import string
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES: tuple[str, ...] = ("de", "fr")
"""The languages with a catalog; English needs none. Adding one is its catalog and this line."""

PSEUDO = "en-XA"
"""The pseudo-locale: every translatable text wrapped in ``⟦ ⟧`` and lengthened by a third."""

PAD = "¤"
"""What lengthens a pseudo-translated text (a character no text of the game uses)."""

_reader: ContextVar[str | None] = ContextVar("cascadia_reader", default=None)


def language(locale: str | None) -> str | None:
    """The catalog language for a Discord locale (``"de"`` for ``de``, ``"fr"`` for ``fr-FR``),
    or ``None`` when English is read (no locale, English, or a language without a catalog)."""
    if not locale:
        return None
    lang = locale.replace("_", "-").split("-")[0].lower()
    return lang if lang in LANGUAGES else None


# --- who is spoken to -------------------------------------------------------------------


@contextmanager
def speaking(locale: str | None) -> Iterator[None]:
    """Within the block, :func:`_` and :func:`_n` answer in ``locale``'s language (``None``:
    English)."""
    token = _reader.set(locale)
    try:
        yield
    finally:
        _reader.reset(token)


def use(locale: str | None) -> None:
    """From here to the end of the running task, :func:`_` and :func:`_n` answer in
    ``locale``'s language: for a request handled in one task, such as a Discord
    interaction, whose reader is its person."""
    _reader.set(locale)


def reader() -> str | None:
    """The locale :func:`speaking` named for the code running now (``None``: English)."""
    return _reader.get()


# --- the catalogs -----------------------------------------------------------------------


def catalog_file(lang: str) -> Traversable:
    """A language's catalog file: ``locales/<lang>/LC_MESSAGES/cascadia.po``."""
    return files(__name__).joinpath("locales", lang, "LC_MESSAGES", "cascadia.po")


def read_catalog(lang: str) -> Catalog:
    """A language's catalog as its file holds it."""
    with catalog_file(lang).open("rb") as po:
        return read_po(po, locale=lang, domain="cascadia")


@cache
def _parsed(lang: str) -> Catalog:
    """A language's catalog, read once for both :func:`translations` and :func:`catalog`."""
    return read_catalog(lang)


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """A language's translations, compiled in memory (untranslated and fuzzy entries left
    out, so those read English)."""
    compiled = io.BytesIO()
    write_mo(compiled, _parsed(lang), use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def catalog(lang: str) -> dict[str, str]:
    """A language's singular translations, English text to translated text."""
    return {
        str(m.id): str(m.string)
        for m in _parsed(lang)
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
        if not m.fuzzy
    }


# --- translating ------------------------------------------------------------------------


def lookup(text: str, locale: str | None) -> str | None:
    """The translation of ``text`` for ``locale``, or ``None`` when there is none (English,
    a language without a catalog, or a text the catalogs lack)."""
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


def translate_plural(
    singular: str, plural: str, count: int, locale: str | None, /, **fields: object
) -> str:
    """The form of ``singular``/``plural`` for ``count`` in ``locale``'s language, with
    ``{n}`` filled by ``count`` as a number of that locale and ``fields`` by the rest."""
    english = singular if count == 1 else plural
    if locale == PSEUDO:
        chosen = pseudo(english)
    else:
        lang = language(locale)
        chosen = english if lang is None else translations(lang).ngettext(singular, plural, count)
    return chosen.format(**{"n": number(count, locale), **fields})


def _(text: str, /, **fields: object) -> str:
    """``text`` in the reader's language (see :func:`speaking`), its fields filled in."""
    return translate(text, _reader.get(), **fields)


def _n(singular: str, plural: str, count: int, /, **fields: object) -> str:
    """The form for ``count`` in the reader's language, ``{n}`` filled by ``count``."""
    return translate_plural(singular, plural, count, _reader.get(), **fields)


def N_(text: str, /) -> str:
    """``text`` unchanged: marks a text to translate where it is used, not where it is
    written (a constant, a table of names)."""
    return text


def pseudo(text: str) -> str:
    """``text`` wrapped and lengthened by a third, placeholders and markup untouched."""
    return f"⟦{text}{PAD * (len(text) // 3)}⟧"


def placeholders(text: str) -> set[str]:
    """The names of the ``{name}`` fields in ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def language_name(locale: str | None) -> str:
    """A locale's language as its speakers write it: ``Deutsch``, ``Français``, ``English``."""
    try:
        parsed = Locale.parse(language(locale) or "en")
    except (ValueError, LookupError):
        parsed = Locale("en")
    name = parsed.get_display_name(parsed) or "English"
    return name[:1].upper() + name[1:]


# --- numbers and dates ------------------------------------------------------------------


def babel_locale(locale: str | None) -> Locale:
    """The CLDR locale for numbers and dates: the locale's own where a catalog exists for
    its language (``de-AT`` keeps Austrian dates), English otherwise."""
    if locale is None or language(locale) is None:
        return Locale("en")
    try:
        return Locale.parse(locale, sep="-")
    except (ValueError, LookupError):
        return Locale.parse(language(locale) or "en")


def number(value: float, locale: str | None = None) -> str:
    """``value`` written as ``locale`` writes numbers (the reader's when not given):
    ``1,234.5`` in English, ``1.234,5`` in German."""
    return format_decimal(value, locale=babel_locale(locale or _reader.get()))


def day(value: date, locale: str | None = None, *, style: str = "medium") -> str:
    """A calendar day as ``locale`` writes it (the reader's when not given)."""
    return format_date(value, format=style, locale=babel_locale(locale or _reader.get()))


def moment(value: datetime, locale: str | None = None, *, style: str = "medium") -> str:
    """A date and time as ``locale`` writes it (the reader's when not given)."""
    return format_datetime(value, format=style, locale=babel_locale(locale or _reader.get()))
