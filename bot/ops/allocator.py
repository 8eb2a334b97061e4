"""The C allocator's settings for a process that runs for weeks: without them the bot's memory
creeps up for as long as it runs, though what it holds does not grow.

The bot's own Python objects stayed at 35-37 MB through a soak of 50 games at once (measured
with ``tracemalloc``), yet with glibc's default settings its resident memory grew by 60-75 MB
an hour. Two of glibc's habits do that to a process like this one:

* a freed large block (a turn's pictures, a replay GIF: hundreds of KiB to MiB, copied a few
  times on the way to Discord) raises the size from which glibc maps blocks of their own; the
  blocks after it come from the heap instead, where a freed one can stay resident behind
  smaller live ones;
* each thread that allocates (aiosqlite's, the thread pool's) may get an arena of its own,
  each with its own free space that the others cannot use.

:func:`tune` fixes the mapping size at 128 KiB, glibc's default before it moves, and keeps two
arenas. In 20-minute soaks run side by side (``benchmarks/soak.py``), the bot's own process
grew by 58 MB an hour with glibc's defaults and by 20 MB an hour with these settings; in a
70-minute soak with them it grew by 5 MB an hour in the second half. A setting a host gives
in the environment (``MALLOC_ARENA_MAX``, ``MALLOC_MMAP_THRESHOLD_``) is not applied over. On
a C library other than glibc (musl, macOS, Windows) nothing is changed.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: blocks from this size on are mapped on their own."""
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter: at most this many arenas."""
MMAP_THRESHOLD = 128 * 1024
ARENA_MAX = 2

SETTINGS = (
    ("MALLOC_MMAP_THRESHOLD_", M_MMAP_THRESHOLD, MMAP_THRESHOLD),
    ("MALLOC_ARENA_MAX", M_ARENA_MAX, ARENA_MAX),
)
"""Each setting: the environment variable that overrides it, the parameter, the value."""


def tune() -> list[str]:
    """Apply the settings to this process (call it before it starts threads); returns the
    names of those applied, empty where the C library is not glibc."""
    if not sys.platform.startswith("linux"):
        return []
    try:
        libc = ctypes.CDLL(None)  # the C library the interpreter itself is linked with
    except OSError:
        return []
    if not hasattr(libc, "gnu_get_libc_version"):
        return []  # not glibc: its mallopt, if any, takes other parameters
    mallopt = libc.mallopt
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    applied = []
    for variable, parameter, value in SETTINGS:
        if variable in os.environ:
            continue  # the host's own choice
        if mallopt(parameter, value) == 1:
            applied.append(variable)
        else:
            log.warning("the C library refused %s=%d", variable, value)
    return applied
