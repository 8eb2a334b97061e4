"""The catalogs: every marked text in every language, every placeholder kept, plurals in
every form, English as the fallback."""

from __future__ import annotations

import re

import pytest

from i18n import (
    LANGUAGES,
    PSEUDO,
    catalog,
    catalog_file,
    language,
    lookup,
    number,
    placeholders,
    pseudo,
    read_catalog,
    speaking,
    translate,
    translate_plural,
)
from i18n.__main__ import missing
from i18n.extract import extracted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_text_has_a_translation(lang: str) -> None:
    known = read_catalog(lang)
    lacking = [f"{t.where}: {t.english!r}" for t in extracted() if t.english not in known]
    assert lacking == [], f"run `python -m i18n missing {lang}`"
    assert missing(lang) == ""


def _texts(value: object) -> list[str]:
    """A message's id or string as a list: one text, or a plural's forms."""
    if isinstance(value, list | tuple):
        return [str(v or "") for v in value]
    return [str(value or "")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(lang: str) -> None:
    empty, fuzzy = [], []
    for message in read_catalog(lang):
        if not message.id:
            continue
        if not all(s.strip() for s in _texts(message.string)):
            empty.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert (empty, fuzzy) == ([], [])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_is_in_the_catalog_twice(lang: str) -> None:
    # Babel keeps the last of two entries of one text: count them in the file itself.
    written = catalog_file(lang).read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.*)"$', written, re.MULTILINE)
    header = 1
    assert len(ids) - header == len([m for m in read_catalog(lang) if m.id])


def test_every_language_holds_the_same_texts() -> None:
    texts = {lang: {str(m.id) for m in read_catalog(lang) if m.id} for lang in LANGUAGES}
    first = texts[LANGUAGES[0]]
    assert {lang: sorted(t ^ first) for lang, t in texts.items()} == {
        lang: [] for lang in LANGUAGES
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_keeps_the_placeholders(lang: str) -> None:
    changed = []
    for message in read_catalog(lang):
        if not message.id:
            continue
        expected = set().union(*(placeholders(i) for i in _texts(message.id))) - {"n"}
        for string in _texts(message.string):
            if placeholders(string) - {"n"} != expected:
                changed.append((message.id, string))
    assert changed == []


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
    assert catalog("de")["Play your whole turn"] == "Deinen ganzen Zug spielen"


def test_the_reader_is_who_is_spoken_to_and_nests() -> None:
    from i18n import _, reader

    assert reader() is None
    with speaking("de"):
        assert _("Play your whole turn") == "Deinen ganzen Zug spielen"
        with speaking("fr"):
            assert _("Play your whole turn") == "Jouer tout ton tour"
        assert reader() == "de"
    assert _("Play your whole turn") == "Play your whole turn"


@pytest.mark.parametrize(
    ("locale", "count", "expected"),
    [
        (None, 1, "1 tile"),
        (None, 0, "0 tiles"),
        ("de", 1, "1 Plättchen"),
        ("de", 1200, "1.200 Plättchen"),
        ("fr", 0, "0 tuile restante"),
        ("fr", 1, "1 tuile restante"),
        ("fr", 2, "2 tuiles restantes"),
    ],
)
def test_plurals_follow_each_language_s_rule(locale: str | None, count: int, expected: str) -> None:
    # French counts 0 as one, English and German as many; the count is a number of the locale.
    assert translate_plural("{n} tile", "{n} tiles", count, locale) == expected


def test_numbers_are_written_as_the_locale_writes_them() -> None:
    assert number(1234.5, "en-US") == "1,234.5"
    assert number(1234.5, "de") == "1.234,5"
    assert number(1234.5, "fr").replace("\u202f", " ").replace("\xa0", " ") == "1 234,5"
    assert number(1234.5, "pt-BR") == "1,234.5", "a language without a catalog reads English"
    with speaking("de"):
        assert number(2.5) == "2,5"


def test_the_pseudo_locale_wraps_lengthens_and_keeps_the_placeholders() -> None:
    text = "Hello {name}, it is **your turn**"
    wrapped = translate(text, PSEUDO)
    assert wrapped.startswith("⟦")
    assert wrapped.endswith("⟧")
    assert len(wrapped) > len(text) * 4 // 3
    assert placeholders(wrapped) == placeholders(text)
    assert translate(text, PSEUDO, name="Ada") == pseudo(text).format(name="Ada")
    assert translate_plural("{n} tile", "{n} tiles", 2, PSEUDO).startswith("⟦2 tiles")
