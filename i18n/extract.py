"""The texts to translate, found in the source by Babel's extractor.

A text is marked where it is written: ``_("...")``, ``_n("...", "...", n)``, ``N_("...")``,
``translate("...", locale)`` or ``translate_plural("...", "...", n, locale)``. The extractor
reads the packages' source files, so a text built any other way (an f-string, a variable) is
not found, and the pseudo-locale's end-to-end run shows it as escaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from babel.messages.extract import extract_from_dir

PACKAGES = ("engine", "render", "bot")
"""Where the texts people read are written."""

KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "N_": None,
    "_n": (1, 2),
    "translate": (1,),
    "translate_plural": (1, 2),
}
"""The functions whose arguments are texts, and which arguments (``None``: the first)."""


@dataclass(frozen=True)
class Text:
    """A text to translate: its English, its plural form if it counts, and where it is."""

    english: str
    plural: str | None
    where: str


def extracted() -> list[Text]:
    """Every marked text of :data:`PACKAGES`, once each, in the order first met."""
    seen: dict[str, Text] = {}
    for package in PACKAGES:
        spec = find_spec(package)
        if spec is None or spec.origin is None:
            continue
        folder = Path(spec.origin).parent
        found = extract_from_dir(
            str(folder),
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        )
        for filename, line, message, _comments, _context in found:
            if isinstance(message, tuple):
                english, plural = str(message[0]), str(message[1])
            else:
                english, plural = str(message), None
            if english and english not in seen:
                seen[english] = Text(english, plural, f"{package}/{filename}:{line}")
    return list(seen.values())
