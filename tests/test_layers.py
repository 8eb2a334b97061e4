"""The three layers import in one direction only: engine <- render <- bot.

The engine stays pure: no Discord, Pillow, database, asyncio, clocks, files or network. The
local Discord-compatible server, ``fakediscord``, stands apart: none of the three imports it,
and it imports none of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FORBIDDEN = {
    "discord",
    "PIL",
    "aiosqlite",
    "sqlite3",
    "asyncio",
    "socket",
    "urllib",
    "http",
    "requests",
    "aiohttp",
    "time",
    "datetime",
    "os",
    "pathlib",
    "io",
    "shutil",
    "subprocess",
    "tempfile",
    "render",
    "bot",
    "fakediscord",
}
# Names whose use means file or network I/O.
IO_CALLS = {"open", "input", "print"}
# The command-line module is the engine's one door to the outside world.
ENGINE_IO_ALLOWED = {"cli.py", "__main__.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


ENGINE_FILES = sorted(p for p in (ROOT / "engine").rglob("*.py") if p.name not in ENGINE_IO_ALLOWED)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_is_pure(path: Path) -> None:
    assert not _imports(path) & ENGINE_FORBIDDEN
    assert not _calls(path) & IO_CALLS


@pytest.mark.parametrize(
    "path", sorted((ROOT / "render").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_render_uses_only_engine_and_pillow(path: Path) -> None:
    assert not _imports(path) & {"discord", "aiosqlite", "sqlite3", "asyncio", "bot", "fakediscord"}


def _package_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _package_files("bot"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_bot_never_imports_the_test_server(path: Path) -> None:
    assert "fakediscord" not in _imports(path)


@pytest.mark.parametrize(
    "path", _package_files("fakediscord"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_test_server_imports_none_of_the_layers(path: Path) -> None:
    assert not _imports(path) & {"engine", "render", "bot", "tests"}


def test_the_checks_see_the_bot_and_the_server() -> None:
    assert {"__main__.py", "client.py"} <= {p.name for p in _package_files("bot")}
    assert {"__init__.py", "server.py"} <= {p.name for p in _package_files("fakediscord")}


def test_the_checks_see_the_engine() -> None:
    names = {p.name for p in ENGINE_FILES}
    assert {"game.py", "hexes.py", "environment.py"} <= names


def test_engine_imports_without_the_other_layers() -> None:
    import subprocess
    import sys

    code = (
        "import sys, engine, engine.serialize, engine.game;"
        "bad = {'discord', 'PIL', 'aiosqlite', 'sqlite3', 'asyncio'} & set(sys.modules);"
        "print(sorted(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
