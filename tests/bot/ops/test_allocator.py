"""The allocator's settings: after :func:`bot.ops.allocator.tune`, a large block that was
freed goes back to the system at once, where glibc's defaults keep it resident; a setting a
host gives in the environment is not applied over."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ops import allocator

ROOT = Path(__file__).resolve().parents[3]
BLOCK = 8 << 20
# One process a case: the settings are the process's. The first block, freed, is what makes
# glibc move its mapping size up to the block's size when left to itself.
PROBE = f"""
import os, sys
from bot.ops import allocator
print(",".join(allocator.tune() if sys.argv[1] == "tuned" else []) or "-")
def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
first = b"x" * {BLOCK}
del first
before = resident()
block = b"y" * {BLOCK}
del block
print(resident() - before)
"""

glibc_only = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the settings are glibc's",
)


def _kept_after_free(mode: str, **env: str) -> tuple[str, int]:
    """Run the probe: the settings applied ("-": none), and how many bytes stayed resident
    after the second large block was freed."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        env={**environment, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    applied, kept = done.stdout.split()
    return applied, int(kept)


@glibc_only
def test_a_freed_large_block_goes_back_to_the_system_once_tuned() -> None:
    applied, kept = _kept_after_free("tuned")
    assert applied == "MALLOC_MMAP_THRESHOLD_,MALLOC_ARENA_MAX"
    assert kept < BLOCK // 8, f"{kept} bytes of a freed {BLOCK}-byte block stayed resident"


@glibc_only
def test_without_the_settings_glibc_keeps_it_resident() -> None:
    # What the settings are for: glibc's own behaviour, which the bot's memory crept up by.
    _, kept = _kept_after_free("plain")
    assert kept >= BLOCK // 2


@glibc_only
def test_a_hosts_own_setting_is_left_as_given() -> None:
    applied, _ = _kept_after_free("tuned", MALLOC_MMAP_THRESHOLD_=str(BLOCK * 2))
    assert applied == "MALLOC_ARENA_MAX"


def test_tune_changes_nothing_where_the_c_library_is_not_glibc(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert allocator.tune() == []
