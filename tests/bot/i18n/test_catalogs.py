"""The catalogs: every language complete, every placeholder kept, English as the fallback."""

from __future__ import annotations

from importlib.resources import files

import pytest
from babel.messages.pofile import read_po

from bot.i18n import (
    LANGUAGES,
    PSEUDO,
    catalog,
    language,
    lookup,
    placeholders,
    pseudo,
    translate,
)


def _entries(lang: str) -> dict[str, str]:
    path = files("bot.i18n").joinpath("locales", lang, "LC_MESSAGES", "cascadia.po")
    with path.open("rb") as po:
        messages = read_po(po, locale=lang)
    return {str(m.id): str(m.string) for m in messages if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_translates_every_text(lang: str) -> None:
    entries = _entries(lang)
    english = set(_entries(LANGUAGES[0]))
    assert set(entries) == english, "every catalog holds the same English texts"
    assert [text for text, translated in entries.items() if not translated.strip()] == []
    assert catalog(lang) == entries, "no entry is fuzzy"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_keeps_the_placeholders(lang: str) -> None:
    changed = {
        text: translated
        for text, translated in catalog(lang).items()
        if placeholders(text) != placeholders(translated)
    }
    assert changed == {}


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("de", "de"), ("fr", "fr"), ("fr-FR", "fr"), ("en-US", None), ("pt-BR", None), (None, None)],
)
def test_a_locale_reads_its_language_or_english(locale: str | None, expected: str | None) -> None:
    assert language(locale) == expected


def test_translate_falls_back_to_english_and_fills_the_placeholders() -> None:
    assert translate("Play your whole turn", "de") == "Deinen ganzen Zug spielen"
    assert translate("Play your whole turn", "fr") == "Jouer tout ton tour"
    assert translate("Play your whole turn", "en-GB") == "Play your whole turn"
    assert translate("No such text {n}", "de", n=3) == "No such text 3"
    assert lookup("No such text", "de") is None
    assert lookup("Play your whole turn", "es-ES") is None


def test_the_pseudo_locale_wraps_lengthens_and_keeps_the_placeholders() -> None:
    text = "Hello {name}, it is **your turn**"
    wrapped = translate(text, PSEUDO)
    assert wrapped.startswith("⟦")
    assert wrapped.endswith("⟧")
    assert len(wrapped) > len(text) * 4 // 3
    assert placeholders(wrapped) == placeholders(text)
    assert translate(text, PSEUDO, name="Ada") == pseudo(text).format(name="Ada")
