"""One build per output folder at a time.

Two builds on one ``out_dir`` would both do all the work and trip over each other's temporary
files (one died on the other's publish folder). A build holds an exclusive ``flock`` on
``<out_dir>/.build.lock`` from its first stage to its end; a second build finds it held and stops
at once with one line naming the folder and the holder. The kernel releases the lock when the
holder exits, however it exits (SIGKILL included), so a crashed build never leaves a stale lock.

The file's content (pid, host, start time, and what the caller adds: the Prefect flow run) names
the holder in that message, and says how the last build ended: a holder that ends, normally or on
an exception (a SIGTERM is one), empties the file; one killed outright (SIGKILL, the OOM killer, a
lost machine) cannot, so the next build finds its record (:attr:`Held.previous`) and can mark
that run as crashed where it is still shown running (quicksilver/orchestration/build.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOCK_NAME = ".build.lock"


class OutDirBusy(RuntimeError):
    """Another build holds the output folder."""


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        return (
            f"pid {info['pid']} on {info['host']}, started "
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(info['started']))}"
        )
    except (OSError, ValueError, KeyError, TypeError):
        return "holder unknown"


@dataclass(frozen=True)
class Held:
    """A held output folder: the lock file, and the record of the build before this one when
    that build was killed (it could not empty the file), else None."""

    path: Path
    previous: dict[str, Any] | None


def _record(fd: int) -> dict[str, Any] | None:
    size = os.fstat(fd).st_size
    if not size:
        return None
    try:
        info = json.loads(os.pread(fd, size, 0).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return info if isinstance(info, dict) else None


def _busy(out_dir: Path, path: Path) -> OutDirBusy:
    return OutDirBusy(
        f"{out_dir} is being built by another build ({_holder(path)}): wait for it to finish, "
        "or give this build another folder (--set out_dir=...)"
    )


def check_free(out_dir: Path) -> None:
    """Raise :class:`OutDirBusy` when another build holds ``out_dir``; change nothing (the
    command line says so before Prefect starts; the flow then holds the lock)."""
    path = out_dir / LOCK_NAME
    if not path.exists():
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(out_dir, path) from None
    finally:
        os.close(fd)


@contextmanager
def build_lock(out_dir: Path, extra: Mapping[str, Any] | None = None) -> Iterator[Held]:
    """Hold ``out_dir`` for one build (module docstring), recording ``extra`` beside the pid,
    host and start; raises :class:`OutDirBusy` at once when another build holds it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(out_dir, path) from None
        previous = _record(fd)
        info = {
            **(extra or {}),
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.time(),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        try:
            yield Held(path, previous)
        finally:
            os.ftruncate(fd, 0)  # ended (normally or not): nothing for the next build to mark
    finally:
        os.close(fd)  # releases the lock
