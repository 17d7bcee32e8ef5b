"""Stopping a long run cleanly on SIGTERM / SIGINT: finished work kept, no process left behind.

:class:`GracefulStop` runs the work in a thread while the main thread waits for it and handles
the signals. On the first SIGTERM or SIGINT it

1. starts a watchdog: if the process has not exited ``grace`` seconds later, every process
   descended from this one is killed and the process exits (``128 + signal``) at once;
2. calls :func:`quicksilver.sandbox.session.begin_shutdown`: every running sandbox is killed and
   no new one starts, so the work in flight fails fast. A stage that sees
   :func:`quicksilver.sandbox.session.shutting_down` after its work raises :class:`Interrupted`
   instead of writing its completion manifest, so a rerun redoes it and only it.

A second signal stops at once (the watchdog's way). Nothing here knows about Prefect.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)
# logged outside any run (the main thread, a signal handler): not for a Prefect API log handler
_LOCAL = {"send_to_api": False}

GRACE_SECONDS = 5.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

T = TypeVar("T")


class Interrupted(RuntimeError):
    """The process is stopping on a signal: this piece of work was not finished or kept."""


# --- processes -----------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a process, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    fields = text.rsplit(")", 1)[-1].split()  # the command name may hold spaces and ")"
    try:
        return int(fields[1]), fields[0]
    except (IndexError, ValueError):
        return None


def descendants(pid: int | None = None) -> list[int]:
    """Pids of every live (not zombie) process whose parent chain leads to ``pid`` (default:
    this process), parents before children."""
    root = os.getpid() if pid is None else pid
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        info = _stat(int(name))
        if info is not None and info[1] != "Z":
            children.setdefault(info[0], []).append(int(name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in sorted(children.get(todo.pop(0), [])):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie does not)."""
    info = _stat(pid)
    return info is not None and info[1] != "Z"


def kill_descendants(pid: int | None = None, *, grace: float = 1.0) -> list[int]:
    """SIGTERM every descendant of ``pid`` (default: this process), SIGKILL what is left after
    ``grace`` seconds; returns the pids signalled."""
    pids = descendants(pid)
    for p in pids:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    # a process may have started a child meanwhile: walk again
    left = [p for p in [*pids, *descendants(pid)] if alive(p)]
    for p in left:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    return sorted(set(pids) | set(left))


# --- signals -------------------------------------------------------------------------------------


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class GracefulStop:
    """Run work in a thread; on SIGTERM / SIGINT stop it within ``grace`` seconds.

    ``message(signum)`` is the one line written to stderr when the process is stopped by a
    signal: by :meth:`announce` (the caller, once the work has unwound) or by the watchdog (when
    it did not unwind in time). It is written once.
    """

    def __init__(self, message: Callable[[int], str], *, grace: float = GRACE_SECONDS) -> None:
        self.message = message
        self.grace = grace
        self.signum: int | None = None
        self._announced = threading.Lock()

    @property
    def stopped(self) -> bool:
        return self.signum is not None

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or 0)

    def announce(self) -> None:
        """Write the stop message (once, whoever calls first)."""
        if self.signum is None or not self._announced.acquire(blocking=False):
            return
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            sys.stderr.write(self.message(self.signum) + "\n")
            sys.stderr.flush()

    def _exit_now(self) -> None:
        self.announce()
        with contextlib.suppress(Exception):
            kill_descendants(grace=0.5)
        os._exit(self.exit_code)

    def _watchdog(self) -> None:
        time.sleep(self.grace)
        log.error(
            "still running %.0f s after %s: stopping now",
            self.grace,
            signal_name(self.signum or 0),
            extra=_LOCAL,
        )
        self._exit_now()

    def _handle(self, signum: int, _frame: Any) -> None:
        if self.signum is not None:  # a second signal: stop at once
            self._exit_now()
        self.signum = signum
        threading.Thread(target=self._watchdog, name="quicksilver-stop", daemon=True).start()
        log.warning(
            "%s: stopping (running sandboxes killed; finished work is kept)",
            signal_name(signum),
            extra=_LOCAL,
        )
        from quicksilver.sandbox.session import begin_shutdown

        begin_shutdown()

    @contextlib.contextmanager
    def _handlers(self) -> Iterator[None]:
        previous = {s: signal.signal(s, self._handle) for s in STOP_SIGNALS}
        try:
            yield
        finally:
            if not self.stopped:  # once stopping, a second signal must still stop at once
                for s, handler in previous.items():
                    signal.signal(s, handler)

    def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a thread (with this thread's context variables); its result or error.

        Outside the main thread (signals cannot be handled there) ``work`` runs directly.
        """
        if threading.current_thread() is not threading.main_thread():
            return work()
        box: dict[str, Any] = {}
        ctx = contextvars.copy_context()

        def target() -> None:
            try:
                box["result"] = ctx.run(work)
            except BaseException as exc:  # handed to the main thread
                box["error"] = exc

        worker = threading.Thread(target=target, name="quicksilver-run", daemon=True)
        with self._handlers():
            worker.start()
            while worker.is_alive():
                worker.join(0.2)
        if self.stopped:
            # the watchdog may still fire while the interpreter exits (atexit handlers); the
            # processes this one started go with it in any case
            atexit.register(kill_descendants, grace=0.5)
        if "error" in box:
            raise box["error"]
        return box["result"]
