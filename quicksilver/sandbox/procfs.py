"""What the host reads of a sandboxed process in /proc: alive, its size, its child, its end."""

from __future__ import annotations

import os
import signal
import time

from quicksilver.sandbox.errors import SandboxError


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b") ", 1)[1][:1]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def _vm_size(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no VmSize for pid {pid}")


def _find_child(parent: int, timeout: float = 5.0) -> int:
    """The host pid of the one child of ``parent`` (the zygote forks one at a time)."""
    deadline = time.monotonic() + timeout
    while True:
        found = []
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as fh:
                    fields = fh.read().rsplit(b") ", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == parent and fields[0] not in (b"Z", b"X"):
                found.append(int(entry.name))
        if len(found) == 1:
            return found[0]
        if time.monotonic() > deadline:
            raise SandboxError(f"the zygote (pid {parent}) has {len(found)} children, not one")
        time.sleep(0.001)


def _describe_returncode(rc: int | None) -> str:
    if rc is None:
        return "exit status unknown"
    if rc < 0:
        return f"killed by {signal.Signals(-rc).name}"
    if rc > 128 and rc - 128 in {s.value for s in signal.Signals}:
        return f"exit status {rc} (signal {signal.Signals(rc - 128).name})"
    return f"exit status {rc}"
