"""The game's things as pictures and their descriptions name them, in the reader's language.

Wildlife, habitats and variant cards are named as the edition in the reader's language names
them (see ``i18n/GLOSSARY.md``): a heading's word (``"Bear"``, ``"Forest"``) and a word inside
a sentence (``"bear"``, ``"forest"``) are separate texts, since English writes them
differently where German and French need not. Each is translated when it is asked for, so
the reader set with :func:`i18n.speaking` around the drawing decides the language.
"""

from __future__ import annotations

from engine import Habitat, Variant, Wildlife
from i18n import N_, _

WILDLIFE_HEADINGS: dict[Wildlife, str] = {
    Wildlife.BEAR: N_("Bear"),
    Wildlife.ELK: N_("Elk"),
    Wildlife.SALMON: N_("Salmon"),
    Wildlife.HAWK: N_("Hawk"),
    Wildlife.FOX: N_("Fox"),
}
"""Each species as a heading or label: "Bear"."""

WILDLIFE_WORDS: dict[Wildlife, str] = {
    Wildlife.BEAR: N_("bear"),
    Wildlife.ELK: N_("elk"),
    Wildlife.SALMON: N_("salmon"),
    Wildlife.HAWK: N_("hawk"),
    Wildlife.FOX: N_("fox"),
}
"""Each species inside a sentence: "a bear"."""

HABITAT_HEADINGS: dict[Habitat, str] = {
    Habitat.MOUNTAIN: N_("Mountain"),
    Habitat.FOREST: N_("Forest"),
    Habitat.PRAIRIE: N_("Prairie"),
    Habitat.WETLAND: N_("Wetland"),
    Habitat.RIVER: N_("River"),
}
"""Each habitat as a heading or label: "Forest"."""

HABITAT_WORDS: dict[Habitat, str] = {
    Habitat.MOUNTAIN: N_("mountain"),
    Habitat.FOREST: N_("forest"),
    Habitat.PRAIRIE: N_("prairie"),
    Habitat.WETLAND: N_("wetland"),
    Habitat.RIVER: N_("river"),
}
"""Each habitat inside a sentence or a legend: "forest"."""

VARIANT_NAMES: dict[str, str] = {
    Variant.FAMILY.value: N_("Family"),
    Variant.INTERMEDIATE.value: N_("Intermediate"),
}
"""Each variant card's name, by the variant's value."""


def wildlife_heading(wildlife: Wildlife) -> str:
    """``wildlife`` as a label: "Bear", German "Bär"."""
    return _(WILDLIFE_HEADINGS[wildlife])


def wildlife_word(wildlife: Wildlife) -> str:
    """``wildlife`` inside a sentence: "bear", German "Bär", French "ours"."""
    return _(WILDLIFE_WORDS[wildlife])


def habitat_heading(habitat: Habitat) -> str:
    """``habitat`` as a label: "Forest", German "Wald"."""
    return _(HABITAT_HEADINGS[habitat])


def habitat_word(habitat: Habitat) -> str:
    """``habitat`` inside a sentence: "forest", German "Wald", French "forêt"."""
    return _(HABITAT_WORDS[habitat])


def variant_name(variant: str) -> str:
    """The variant card ``variant`` (``"family"``) by its name: "Family", German "Familie"."""
    return _(VARIANT_NAMES[variant])
