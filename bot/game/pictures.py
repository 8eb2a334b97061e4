"""A worker process that draws the outbox's pictures, off the bot's event loop and its GIL.

Drawing a turn's pictures is most of the bot's CPU time. In a thread it still competes with
the event loop for the interpreter lock; in a process of its own it uses another core, so
commands keep being answered quickly while pictures are drawn. On a one-core machine the
default thread pool is used instead.

The reader (:func:`i18n.speaking`) does not travel into a worker process, nor into a thread of
``loop.run_in_executor``: what is drawn there is wrapped in :func:`drawn_in`, which names the
reader again on the worker's side, so that the pictures' words are in the right language.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

from bot.ops import allocator
from i18n import speaking

T = TypeVar("T")

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot is still running."""


def start_renderer() -> Executor | None:
    """A one-process pool for drawing (started lazily, on first use), or ``None`` (use the
    default thread pool) on a machine with a single core."""
    if (os.cpu_count() or 1) < 2:
        return None
    return ProcessPoolExecutor(
        max_workers=1,
        # Not fork: the bot has threads (aiosqlite, the thread pool) that a fork would copy
        # in an unknown state.
        mp_context=multiprocessing.get_context("spawn"),
        initializer=worker_setup,
        initargs=(os.getpid(),),
    )


def worker_setup(parent: int) -> None:
    """Prepare a worker process of the bot: its allocator tuned as the bot's (see
    :mod:`bot.ops.allocator`), it ignores Ctrl-C (the bot shuts its pools down itself) and
    exits by itself when the bot ``parent`` is gone."""
    allocator.tune()
    # Ctrl-C reaches the whole process group: the bot shuts the worker down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    # A bot killed outright (SIGKILL, OOM) cannot shut its pool down: leave with it.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def drawn_in(
    locale: str | None, function: Callable[..., T], /, *args: Any, **kwargs: Any
) -> Callable[[], T]:
    """``function(*args, **kwargs)`` to run in an executor with ``locale`` as the reader:
    the pictures it draws and describes say their words in that language. Picklable when
    ``function`` and its arguments are, so it crosses into the worker process:
    ``loop.run_in_executor(renderer, drawn_in(locale, game_pictures, record))``."""
    return partial(_in_language, locale, function, *args, **kwargs)


def _in_language(locale: str | None, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    with speaking(locale):
        return function(*args, **kwargs)
