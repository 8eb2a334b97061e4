"""Golden files: text the tests produce, compared whole with a file kept in the repository.

The files change only on purpose: run the tests with ``CASCADIA_REGEN_GOLDEN=1`` and read the
diff. A failing comparison writes what it got beside the file as ``NAME.actual.txt``
(git-ignored) and shows the first line that differs.
"""

from __future__ import annotations

import os
from itertools import zip_longest
from pathlib import Path

import pytest

REGENERATE = os.environ.get("CASCADIA_REGEN_GOLDEN") == "1"
"""Whether this run rewrites the golden files instead of comparing with them."""


def _first_difference(expected: str, actual: str) -> str:
    pairs = zip_longest(expected.splitlines(), actual.splitlines(), fillvalue="(no line)")
    for number, (old, new) in enumerate(pairs, start=1):
        if old != new:
            return f"first at line {number}:\n  golden: {old}\n  now:    {new}"
    return "only in the line endings"


def assert_matches_golden(path: Path, text: str, *, what: str = "transcript") -> None:
    """Compare ``text`` with the golden file at ``path`` (or rewrite it when regenerating);
    ``what`` names the kind of file in the failure."""
    actual_path = path.with_suffix(".actual.txt")
    if REGENERATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        actual_path.unlink(missing_ok=True)
        return
    if not path.exists():
        actual_path.write_text(text, encoding="utf-8")
        pytest.fail(f"no golden {what} {path.name}; run with CASCADIA_REGEN_GOLDEN=1")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        actual_path.write_text(text, encoding="utf-8")
        pytest.fail(
            f"{path.name} differs from the golden {what}; see {actual_path}\n"
            + _first_difference(expected, text)
        )
    actual_path.unlink(missing_ok=True)
