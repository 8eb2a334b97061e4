"""What translation costs on the turn path: a turn message's words and its pictures, in each
language.

Run from the repository root: ``PYTHONPATH=. python benchmarks/translation.py`` (``--runs N``
sets the number of timed runs). For a four-player game late in its play it times, per
language (English, German, French and the pseudo-locale):

- the words of the channel message after a turn (what the mover did and who plays next),
  as the kernel writes them;
- the words and pictures the outbox posts for it (the display, the mover's board and the
  others', each with its alt text), drawn as the picture worker draws them;
- once, the first use of a language: reading and compiling its catalog.

English reads no catalog. Run on a checkout from before the words were translatable (with
``PYTHONPATH`` at that checkout, and ``--english``), the script times that code's English
path: the figures before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks import positions
from bot.game.messages import Player, turn_message
from bot.game.outbox import Announcement, Picture, render_pictures
from engine import Action, GameState, apply, legal_actions
from render import clear_picture_cache

i18n: ModuleType | None
try:
    import i18n
except ImportError:  # a checkout from before the words were translatable
    i18n = None

LOCALES = (None,) if i18n is None else (None, "de", "fr", i18n.PSEUDO)
PLAYERS = tuple(Player(100 + i, name) for i, name in enumerate(("ada", "bob", "cy", "dee")))


def _turn() -> tuple[GameState, GameState, list[Action]]:
    """A whole turn of the late four-player game: the state before, after, and its actions."""
    before = positions.late_four_player()
    state, actions = before, []
    while state.current == before.current and not state.is_over:
        action = legal_actions(state)[0]
        actions.append(action)
        state = apply(state, action)
    return before, state, actions


def _median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed runs of the words")
    parser.add_argument("--picture-runs", type=int, default=10, help="timed runs of pictures")
    parser.add_argument("--english", action="store_true", help="time English alone")
    args = parser.parse_args(argv)
    locales = (None,) if args.english else LOCALES
    before, after, actions = _turn()

    speaking: Callable[[str | None], contextlib.AbstractContextManager[object]]
    speaking = (lambda _locale: contextlib.nullcontext()) if i18n is None else i18n.speaking
    if i18n is not None and not args.english:
        print("first use of a language (read and compile its catalog):")
        for lang in i18n.LANGUAGES:
            i18n.translations.cache_clear()
            i18n.catalog.cache_clear()
            start = time.perf_counter()
            i18n.translate("Turn played.", lang)
            i18n.translate_plural("{n} tile", "{n} tiles", 2, lang)
            print(f"  {lang}: {(time.perf_counter() - start) * 1000:.1f} ms")

    print(f"per turn message, median of {args.runs} runs (words), {args.picture_runs} (pictures):")
    print(f"  {'locale':8} {'words':>9} {'pictures':>10} {'characters':>11}")
    for locale in locales:

        def words(locale: str | None = locale) -> str:
            with speaking(locale):
                return turn_message(before, after, actions, PLAYERS)

        text = words()
        with speaking(locale):
            announcement = Announcement(
                kind="turn",
                text=text,
                pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
                state=after,
                names=tuple(p.name for p in PLAYERS),
                mover=before.current,
            )

        def pictures(announcement: Announcement = announcement) -> object:
            clear_picture_cache()
            return render_pictures(announcement)

        words_ms = _median_ms(words, args.runs)
        pictures_ms = _median_ms(pictures, args.picture_runs)
        name = locale or "en"
        print(f"  {name:8} {words_ms:8.3f}ms {pictures_ms:8.1f}ms {len(text):11d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
