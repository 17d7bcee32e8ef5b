"""Stopping every sandbox of this process at once (SIGTERM / SIGINT), and the work folders a
crash left behind."""

from __future__ import annotations

import contextlib
import logging
import shutil
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Protocol

log = logging.getLogger("quicksilver.sandbox.session")


class _Killable(Protocol):
    def kill(self) -> None: ...


WORK_PREFIX = "qs-sandbox-"

# Every running session of this process, so that a signal handler can stop them all at once.
_LIVE: weakref.WeakSet[_Killable] = weakref.WeakSet()  # SandboxSession
_LIVE_LOCK = threading.Lock()
_SHUTTING_DOWN = threading.Event()


def begin_shutdown() -> int:
    """Refuse new sandboxes from now on and kill every running one; returns how many were killed.

    Called from a SIGTERM / SIGINT handler: a command in flight then fails at once with
    :class:`ShuttingDown` instead of running to its time limit.
    """
    _SHUTTING_DOWN.set()
    with _LIVE_LOCK:
        sessions = list(_LIVE)
    for session in sessions:
        with contextlib.suppress(Exception):
            session.kill()
    return len(sessions)


def shutting_down() -> bool:
    return _SHUTTING_DOWN.is_set()


def sweep_orphans(root: Path | None = None) -> list[Path]:
    """Remove sandbox work folders whose owning process is gone (a crash or SIGKILL left them).

    Folder names carry the owner's pid (``qs-sandbox-<pid>-...``); a folder of a live process is
    left alone, as is anything that does not follow the pattern.
    """
    base = Path(root or tempfile.gettempdir())
    removed = []
    for path in base.glob(f"{WORK_PREFIX}*"):
        owner = path.name[len(WORK_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or not path.is_dir() or Path(f"/proc/{owner}").exists():
            continue  # not ours, or its process (this one included) still runs
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists():
            removed.append(path)
    if removed:
        log.info("removed %d orphaned sandbox folder(s) under %s", len(removed), base)
    return removed
