"""One build per output folder at a time.

Two builds on one ``out_dir`` would both do all the work and trip over each other's temporary
files (one died on the other's publish folder). A build holds an exclusive ``flock`` on
``<out_dir>/.build.lock`` from its first stage to its end; a second build finds it held and stops
at once with one line naming the folder and the holder. The kernel releases the lock when the
holder exits, however it exits (SIGKILL included), so a crashed build never leaves a stale lock;
the file's content (pid, host, start time) is only there to be named in the message.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


@contextmanager
def build_lock(out_dir: Path) -> Iterator[Path]:
    """Hold ``out_dir`` for one build (module docstring); raises :class:`OutDirBusy` at once
    when another build holds it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutDirBusy(
                f"{out_dir} is being built by another build ({_holder(path)}): wait for it to "
                "finish, or give this build another folder (--set out_dir=...)"
            ) from None
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        yield path
    finally:
        os.close(fd)  # releases the lock
