"""A Prefect server of a test's own: ``prefect server start`` on a free port, with a fresh home
(its own database), in a process group of its own so that a test can kill all of it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from quicksilver.orchestration.prefect_server import api_healthy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    api: str
    proc: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Kill the server at once, every process of it (an outage, not a shutdown)."""
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


@contextmanager
def prefect_server(home: Path, start_seconds: float = 180) -> Iterator[Server]:
    """A Prefect server with its UI (the UI calls this server's API) on a free port, home
    ``home``; stopped when the block ends."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
    env = {
        **os.environ,
        "PREFECT_HOME": str(home),
        "PREFECT_UI_API_URL": api,
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    env.pop("PREFECT_API_URL", None)
    log = home / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [prefect, "server", "start", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(api, proc, log)
    try:
        deadline = time.monotonic() + start_seconds
        while not api_healthy(api):
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, (
                f"the Prefect server did not start in {start_seconds} s"
            )
            time.sleep(0.5)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
