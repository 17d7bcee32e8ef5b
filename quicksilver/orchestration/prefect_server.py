"""Which Prefect server a build reports to, and `make ui`'s server.

A build reports to a server only when it is pointed at one, and its first line says which:

1. ``PREFECT_API_URL`` in the environment;
2. ``PREFECT_API_URL`` in Prefect's own settings (a profile, a settings file);
3. the server that `make ui` of this checkout runs: `make ui` (``python -m
   quicksilver.orchestration.prefect_server``) starts ``prefect server start`` and writes
   :data:`MARKER` in the checkout, with the server's API URL, its pid and its start time, and
   removes it when the server stops. A marker whose process is gone (or is another process under a
   reused pid), or whose server does not answer, is not used;
4. else the temporary server Prefect starts for the run (quicksilver/orchestration/cli.py starts it
   itself for a Dask build, as before).

Any other server is left alone, even one answering on 127.0.0.1:4200: on a shared machine that is
another checkout's `make ui` or another user's, and a build once reported there without a word.
The line says when one answers there and how to use it (``PREFECT_API_URL``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path


def _checkout() -> Path:
    """The checkout this package runs from (its `make ui` marker lives there), or, for an
    installed package, the working directory."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else Path.cwd()


REPO = _checkout()
MARKER = REPO / ".prefect-ui.json"
UI_HOST = "127.0.0.1"
UI_PORT = 4200
UI_API = f"http://{UI_HOST}:{UI_PORT}/api"


def api_healthy(api: str, timeout: float = 1.0) -> bool:
    """Whether a Prefect API answers its health check at ``api``."""
    try:
        with urllib.request.urlopen(f"{api.rstrip('/')}/health", timeout=timeout) as resp:
            return bool(resp.status == 200)
    except OSError:
        return False


def ui_url(api: str) -> str:
    """The UI of a self-hosted server, from its API URL (``.../api`` -> ``...``)."""
    return api.rstrip("/").removesuffix("/api")


def process_start(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot, /proc/PID/stat), or None when there
    is no such process. With the pid, it names one process: pids are reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the fields after the command name (which may hold spaces and parentheses); starttime is
    # field 22 of the file, the 20th after the name
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[19])


def write_marker(marker: Path, api: str, pid: int) -> None:
    """Say that this checkout's `make ui` server runs at ``api`` as process ``pid``."""
    start = process_start(pid)
    body = {"api": api, "pid": pid, "start": start, "checkout": str(marker.parent)}
    tmp = marker.with_name(marker.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=1) + "\n")
    tmp.replace(marker)


def remove_marker(marker: Path, pid: int) -> None:
    """Remove ``marker`` if it still names process ``pid`` (a later `make ui` may own it)."""
    try:
        if json.loads(marker.read_text()).get("pid") == pid:
            marker.unlink()
    except (OSError, ValueError):
        pass


def checkout_ui(marker: Path = MARKER) -> tuple[str | None, str]:
    """(the API of this checkout's running `make ui` server, or None; what was found)."""
    try:
        body = json.loads(marker.read_text())
        api, pid, start = str(body["api"]), int(body["pid"]), body.get("start")
    except FileNotFoundError:
        return None, f"no `make ui` of this checkout runs: no {marker.name}"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"{marker} is unreadable ({exc}): ignored"
    if start is None or process_start(pid) != start:
        return None, f"the `make ui` of this checkout that was at {api} (pid {pid}) is gone"
    if not api_healthy(api):
        return None, f"this checkout's `make ui` (pid {pid}) does not answer at {api}"
    return api, f"`make ui` of this checkout, pid {pid}"


@dataclass(frozen=True)
class ServerChoice:
    """The server a run reports to (``api``; None: a temporary one of its own) and why."""

    api: str | None
    why: str

    def line(self) -> str:
        if self.api is None:
            return f"Prefect: a temporary server for this run ({self.why})"
        return f"Prefect: reporting to {self.api} ({self.why})"


def _settings_api() -> tuple[str | None, str]:
    """PREFECT_API_URL as Prefect's settings have it, and where it comes from."""
    from prefect.context import get_settings_context
    from prefect.settings import PREFECT_API_URL

    value = PREFECT_API_URL.value()
    if not value:
        return None, ""
    profile = get_settings_context().profile.name
    return str(value), f"PREFECT_API_URL in Prefect's settings (profile {profile!r})"


def choose_server(marker: Path = MARKER, probe: str = UI_API) -> ServerChoice:
    """The server a build of this checkout reports to (module docstring). ``probe``: where a
    server not pointed at is looked for, only to say that it is not used."""
    env = os.environ.get("PREFECT_API_URL")
    if env:
        return ServerChoice(env, "PREFECT_API_URL in the environment")
    api, why = _settings_api()
    if api:
        return ServerChoice(api, why)
    api, found = checkout_ui(marker)
    if api:
        return ServerChoice(api, found)
    why = f"no PREFECT_API_URL, and {found}"
    if api_healthy(probe):
        why += (
            f"; the Prefect server answering at {probe} is not this checkout's `make ui`, so it "
            f"is not used (PREFECT_API_URL={probe} reports there)"
        )
    return ServerChoice(None, why)


# --- make ui ---------------------------------------------------------------------------------


def serve_ui(host: str, port: int, marker: Path = MARKER) -> int:
    """`make ui`: ``prefect server start`` on ``host:port`` until stopped, with ``marker``
    saying so while it runs. Exit 1 when this checkout's is already running, or the port is
    another server's."""
    running, _ = checkout_ui(marker)
    if running:
        print(f"error: this checkout's `make ui` already runs: {ui_url(running)}", file=sys.stderr)
        return 1
    api = f"http://{host}:{port}/api"
    if api_healthy(api):
        print(
            f"error: another Prefect server answers at {api} (not this checkout's); "
            "choose a free port: make ui UI_PORT=4201",
            file=sys.stderr,
        )
        return 1
    prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
    env = {**os.environ, "PREFECT_UI_API_URL": api}  # else the UI calls the API on :4200
    env.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    proc = subprocess.Popen(
        [prefect, "server", "start", "--host", host, "--port", str(port)], env=env
    )

    def stop(signum: int, _frame: object) -> None:
        proc.send_signal(signum)  # the server stops; wait() below returns

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    write_marker(marker, api, proc.pid)
    print(
        f"Prefect UI: {ui_url(api)}  (builds of {marker.parent} report there: make build-dataset "
        f"in another shell; {marker.name} says so while it runs)",
        flush=True,
    )
    try:
        code = proc.wait()
    finally:
        remove_marker(marker, proc.pid)
    return 128 - code if code < 0 else code  # stopped by a signal: the shell's convention


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The Prefect server and UI of this checkout.")
    parser.add_argument("--host", default=UI_HOST)
    parser.add_argument("--port", type=int, default=UI_PORT)
    parser.add_argument("--marker", type=Path, default=MARKER, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return serve_ui(args.host, args.port, args.marker)


if __name__ == "__main__":
    sys.exit(main())
