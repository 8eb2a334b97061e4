"""What import-linter's contracts (``pyproject.toml``, run by ``lint-imports``) cannot say.

The contracts hold the layers (engine <- i18n <- render <- bot), the bot's floors and features, the
Discord rooms and the local Discord server standing apart. These tests hold the rest: the
engine stays pure (no Discord, Pillow, database, asyncio, clocks, files or network, and no
such calls); render imports only the engine, the catalogs and Pillow; the benchmarks run
installed code only, never the tests; outside the engine, code asks the ``engine`` package for
its public names only; and no modules of the project import each other in a circle (imports for type
checking only aside).
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FORBIDDEN = {
    "discord",
    "PIL",
    "aiosqlite",
    "asyncpg",
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
    "i18n",
    "render",
    "bot",
    "fakediscord",
    "sandbox",
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
    forbidden = {
        "discord",
        "aiosqlite",
        "asyncpg",
        "sqlite3",
        "asyncio",
        "bot",
        "fakediscord",
        "sandbox",
    }
    assert not _imports(path) & forbidden


def _package_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize(
    "path", _package_files("benchmarks"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_benchmarks_never_import_the_tests(path: Path) -> None:
    assert "tests" not in _imports(path)


def test_the_checks_see_the_bot_the_server_the_sandbox_and_the_benchmarks() -> None:
    assert {"__main__.py", "client.py"} <= {p.name for p in _package_files("bot")}
    assert {"__init__.py", "server.py"} <= {p.name for p in _package_files("fakediscord")}
    assert {"__init__.py", "botprocess.py"} <= {p.name for p in _package_files("sandbox")}
    assert {"load.py", "render.py"} <= {p.name for p in _package_files("benchmarks")}


def test_the_checks_see_the_engine() -> None:
    names = {p.name for p in ENGINE_FILES}
    assert {"game.py", "hexes.py", "environment.py"} <= names


def test_engine_imports_without_the_other_layers() -> None:
    code = (
        "import sys, engine, engine.serialize, engine.game;"
        "bad = {'discord', 'PIL', 'aiosqlite', 'sqlite3', 'asyncio'} & set(sys.modules);"
        "print(sorted(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _modules(path: Path) -> set[str]:
    """Every module ``path`` imports by its full name (``from bot import lobby`` is
    ``bot.lobby.cog``; ``from engine import Hex`` is ``engine``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if _is_module(name):
                    found.add(name)
    return found


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


DISCORD_PACKAGES = {"discord", "aiohttp", "yarl"}
# The scoring cards' point tables are published as module constants, one module per card
# family: the card reminders in render/cards.py read them there.
SCORING_CARD_MODULES = {
    "engine.scoring",
    *(f"engine.scoring.{card}" for card in ("bear", "elk", "fox", "hawk", "salmon", "variants")),
}


@pytest.mark.parametrize("path", _package_files("bot") + _package_files("render"), ids=_rel)
def test_engine_is_used_by_its_public_names(path: Path) -> None:
    inside = sorted(
        m for m in _modules(path) if m.startswith("engine.") and m not in SCORING_CARD_MODULES
    )
    assert not inside, f"import these from engine itself: {inside}"


PROJECT_PACKAGES = ("engine", "i18n", "render", "bot", "fakediscord", "sandbox")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run when the module is imported: at module level, also inside
    ``if`` and ``try`` blocks, but not under ``if TYPE_CHECKING:`` nor inside functions."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _load_time_imports(node.body)
            found += _load_time_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse):
                found += _load_time_imports(block)
            found += _load_time_imports(node.finalbody)
    return found


def import_graph(root: Path, packages: Sequence[str]) -> dict[str, set[str]]:
    """Which of the packages' modules each one imports when it is loaded: ``import a.b``
    and ``from a import b`` (``b`` a module) lead to ``a.b``, ``from a import name`` to
    ``a``; relative imports are resolved from the importing module's package."""
    paths = {
        _module_name(path, root): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _load_time_imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in paths else base)
        graph[name] = {target for target in targets if target in paths and target != name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or around a circle (the
    strongly connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_no_modules_of_the_project_import_each_other_in_a_circle() -> None:
    graph = import_graph(ROOT, PROJECT_PACKAGES)
    assert {
        "bot.game.service",
        "bot.game.computers",
        "engine.move",
        "engine.scorer",
    } <= graph.keys()
    assert "bot.game.kernel" in graph["bot.game.service"]
    assert import_cycles(graph) == []


def test_the_circle_check_finds_a_circle_and_skips_type_checking_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "try:\n    from . import c\nexcept ImportError:\n    pass\n",
        "c.py": "import pkg.a\n",
        "d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n",
        "e.py": "from pkg.d import thing\n\n\ndef later() -> None:\n    from pkg import e\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.e"] == {"pkg.d"}
    assert graph["pkg.d"] == set()
    assert import_cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
