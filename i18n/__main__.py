"""``python -m i18n missing LANG``: the marked texts a language's catalogs lack, as ``.po``
entries to translate and add to one of its catalog files.

``python -m i18n missing de > new.po`` gives every such entry with an empty translation; fill
each ``msgstr`` and move the entries into ``i18n/locales/de/LC_MESSAGES/`` (any file there).
"""

from __future__ import annotations

import argparse
import sys

from i18n import LANGUAGES, read_catalog
from i18n.extract import extracted


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = escaped.split("\n")
    if len(lines) == 1:
        return f'"{lines[0]}"'
    parts = [f'"{line}\\n"' for line in lines[:-1]]
    if lines[-1]:
        parts.append(f'"{lines[-1]}"')
    return '""\n' + "\n".join(parts)


def missing(lang: str) -> str:
    """The ``.po`` entries for every marked text ``lang``'s catalogs lack."""
    known = read_catalog(lang)
    entries = []
    for text in extracted():
        if text.english in known:
            continue
        entry = f"#: {text.where}\nmsgid {_quote(text.english)}\n"
        if text.plural is None:
            entry += 'msgstr ""\n'
        else:
            entry += f"msgid_plural {_quote(text.plural)}\n"
            entry += "".join(f'msgstr[{i}] ""\n' for i in range(known.num_plurals))
        entries.append(entry)
    return "\n".join(entries)


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    parser = argparse.ArgumentParser(prog="python -m i18n")
    commands = parser.add_subparsers(dest="command", required=True)
    lack = commands.add_parser("missing", help="the texts a language's catalogs lack")
    lack.add_argument("language", choices=LANGUAGES)
    args = parser.parse_args(argv)
    text = missing(args.language)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
