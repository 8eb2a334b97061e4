"""``cascadia-bot sandbox`` on the command line: a port in use is refused with the way out."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.sandbox.conftest import REPO_ROOT, START_TIMEOUT


def test_a_port_in_use_names_port_0(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
        done = subprocess.run(
            [sys.executable, "-m", "bot", "sandbox", "--port", str(port), "--players", "1",
             "--db", str(tmp_path / "sandbox.sqlite3")],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
        )  # fmt: skip
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"cannot serve the page on 127.0.0.1:{port}" in done.stderr, done.stderr
    assert "try --port 0 for any free one" in done.stderr, done.stderr
