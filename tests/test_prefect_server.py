"""Which Prefect server a build reports to (quicksilver/orchestration/prefect_server.py): only one it is pointed at
(PREFECT_API_URL, Prefect's settings, or `make ui` of the same checkout), never another that
merely answers on the port, and its first line says which."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

import pytest

from quicksilver.orchestration.prefect_server import (
    checkout_ui,
    choose_server,
    process_start,
    remove_marker,
    write_marker,
)
from tests.conftest import requires_bwrap
from tests.local_http import LocalHTTPServer

ROOT = Path(__file__).resolve().parents[1]


class _Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        ok = self.path == "/api/health"
        self.send_response(200 if ok else 404)
        self.end_headers()
        self.wfile.write(b"true" if ok else b"")

    def log_message(self, *args: object) -> None:
        pass


class PrefectLikeServer(LocalHTTPServer):
    """A server that answers Prefect's health check, as another process's `make ui` does."""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Health

    @property
    def api(self) -> str:
        return f"{self.base_url}/api"


@pytest.fixture
def other_server() -> Iterator[PrefectLikeServer]:
    with PrefectLikeServer() as server:
        yield server


@pytest.fixture
def unconfigured(monkeypatch) -> Iterator[None]:
    """No PREFECT_API_URL anywhere (environment or Prefect's settings, which a test harness of
    the session may have set)."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        yield


def test_a_server_that_merely_answers_is_not_used(unconfigured, other_server, tmp_path):
    """What happened: a build reported to another process's server on the port, silently."""
    choice = choose_server(marker=tmp_path / ".prefect-ui.json", probe=other_server.api)
    assert choice.api is None
    line = choice.line()
    assert line.startswith("Prefect: a temporary server for this run (no PREFECT_API_URL")
    assert f"the Prefect server answering at {other_server.api} is not this checkout's" in line
    assert f"PREFECT_API_URL={other_server.api} reports there" in line


def test_the_make_ui_of_this_checkout_is_used(unconfigured, other_server, tmp_path):
    marker = tmp_path / ".prefect-ui.json"
    write_marker(marker, other_server.api, os.getpid())  # a live process, a live server
    body = json.loads(marker.read_text())
    assert body["pid"] == os.getpid() and body["start"] == process_start(os.getpid())
    assert body["checkout"] == str(tmp_path)
    choice = choose_server(marker=marker, probe="http://127.0.0.1:9/api")
    assert choice.api == other_server.api
    assert choice.line() == (
        f"Prefect: reporting to {other_server.api} (`make ui` of this checkout, pid {os.getpid()})"
    )
    remove_marker(marker, os.getpid() + 1)  # another's: left alone
    assert marker.exists()
    remove_marker(marker, os.getpid())
    assert not marker.exists()


def test_a_stale_marker_is_not_used(unconfigured, other_server, tmp_path):
    marker = tmp_path / ".prefect-ui.json"
    gone = subprocess.Popen(["true"])
    gone.wait()
    write_marker(marker, other_server.api, gone.pid)
    choice = choose_server(marker=marker, probe="http://127.0.0.1:9/api")
    assert choice.api is None and f"(pid {gone.pid}) is gone" in choice.why
    # the pid of a live process that is not the one the marker names (pids are reused)
    write_marker(marker, other_server.api, os.getpid())
    body = json.loads(marker.read_text())
    marker.write_text(json.dumps({**body, "start": body["start"] - 1}))
    assert checkout_ui(marker)[0] is None
    # the process lives but nothing answers at the URL
    write_marker(marker, "http://127.0.0.1:9/api", os.getpid())
    api, why = checkout_ui(marker)
    assert api is None and "does not answer" in why
    marker.write_text("{not json")
    assert checkout_ui(marker)[0] is None


def test_a_server_pointed_at_is_used_and_named(unconfigured, other_server, tmp_path, monkeypatch):
    from prefect.settings import PREFECT_API_URL, temporary_settings

    marker = tmp_path / ".prefect-ui.json"
    with temporary_settings(updates={PREFECT_API_URL: other_server.api}):
        choice = choose_server(marker=marker)
    assert choice.api == other_server.api and "in Prefect's settings (profile" in choice.why
    monkeypatch.setenv("PREFECT_API_URL", "http://10.0.0.7:4200/api")
    choice = choose_server(marker=marker)
    assert choice.line() == (
        "Prefect: reporting to http://10.0.0.7:4200/api (PREFECT_API_URL in the environment)"
    )


@requires_bwrap  # the preflight tries the sandbox before it finds no such question
def test_the_build_command_says_first_which_server(other_server, tmp_path):
    """The command's first line, before the preflight (which stops this one: exit 3)."""
    env = {
        **os.environ,
        "PREFECT_API_URL": other_server.api,
        "PREFECT_HOME": str(tmp_path / "home"),
    }
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "flows" / "build_mercury.py"),
            "--set",
            f"out_dir={tmp_path / 'out'}",
            "--set",
            'only=["no-such-question"]',
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.splitlines()[0] == (
        f"Prefect: reporting to {other_server.api} (PREFECT_API_URL in the environment)"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def make_ui(marker: Path, port: int, home: Path) -> Iterator[subprocess.Popen[str]]:
    """``python -m quicksilver.orchestration.prefect_server`` (what `make ui` runs) with its marker at ``marker``."""
    env = {**os.environ, "PREFECT_HOME": str(home)}
    env.pop("PREFECT_API_URL", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "quicksilver.orchestration.prefect_server",
            "--port",
            str(port),
            "--marker",
            marker,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait()


@pytest.mark.flows
def test_make_ui_says_where_it_runs_while_it_runs(unconfigured, tmp_path):
    marker = tmp_path / ".prefect-ui.json"
    port = _free_port()
    api = f"http://127.0.0.1:{port}/api"
    with make_ui(marker, port, tmp_path / "home") as proc:
        deadline = time.monotonic() + 180  # the server's start, on a busy machine
        while checkout_ui(marker)[0] is None:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline, "make ui's server did not answer"
            time.sleep(0.5)
        body = json.loads(marker.read_text())
        assert body["api"] == api and body["checkout"] == str(tmp_path)
        assert "prefect" in Path(f"/proc/{body['pid']}/cmdline").read_text()
        assert choose_server(marker=marker).line() == (
            f"Prefect: reporting to {api} (`make ui` of this checkout, pid {body['pid']})"
        )
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "quicksilver.orchestration.prefect_server",
                "--port",
                "9",
                "--marker",
                marker,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert second.returncode == 1 and "already runs" in second.stderr
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate()
    assert not marker.exists(), out
    assert f"Prefect UI: http://127.0.0.1:{port}" in out


class _SlowServer:
    """Prefect's SubprocessASGIServer as a busy machine shows it: no answer in time, ``fails``
    times."""

    api_url = "http://127.0.0.1:9/api"
    fails = 1
    calls: ClassVar[list[object]] = []

    def start(self, timeout: int | None = None) -> None:
        type(self).calls.append(timeout)
        if sum(isinstance(c, int) for c in type(self).calls) <= type(self).fails:
            raise RuntimeError(
                "Timed out while attempting to connect to ephemeral Prefect API server. stdout: x"
            )

    def stop(self) -> None:
        type(self).calls.append("stop")


def test_a_slow_temporary_server_gets_time_and_a_second_attempt(monkeypatch):
    from quicksilver.orchestration.cli import shared_temporary_server

    said: list[str] = []

    class _Said(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    monkeypatch.setattr("prefect.server.api.server.SubprocessASGIServer", _SlowServer)
    monkeypatch.setattr(_SlowServer, "calls", [])
    handler = _Said()
    logging.getLogger("quicksilver").addHandler(handler)
    try:
        assert shared_temporary_server() == _SlowServer.api_url
    finally:
        logging.getLogger("quicksilver").removeHandler(handler)
    assert _SlowServer.calls == [120, "stop", 120]  # 120 s each, not Prefect's 20
    assert len(said) == 1 and "did not answer within 120 s (attempt 1 of 2)" in said[0]
    assert "stdout" not in said[0]


def test_a_temporary_server_that_never_answers_says_what_to_do(monkeypatch):
    from quicksilver.orchestration.cli import ServerStartFailed, shared_temporary_server

    monkeypatch.setattr("prefect.server.api.server.SubprocessASGIServer", _SlowServer)
    monkeypatch.setattr(_SlowServer, "calls", [])
    monkeypatch.setattr(_SlowServer, "fails", 99)
    with pytest.raises(ServerStartFailed) as exc:
        shared_temporary_server(seconds=5)
    assert str(exc.value) == (
        "the temporary Prefect server did not start (2 attempts of 5 s; a busy machine?): run "
        "`make ui` in another shell and build again (the build then reports there), or point "
        "PREFECT_API_URL at a running Prefect server"
    )
