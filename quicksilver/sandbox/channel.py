"""One command/reply channel pair to one sandboxed process: the exchange of one command, the
captured output, and waiting until the process blocks on its next command."""

from __future__ import annotations

import itertools
import platform
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from quicksilver.meters import Meter, _process_cpu_clock
from quicksilver.sandbox.memory import MemoryProbe, MemoryTrace
from quicksilver.sandbox.runtime import wire


@dataclass
class Exchange:
    reply: dict[str, Any]
    cost: int  # meter units consumed between sending the command and receiving its reply
    idle: int  # meter units consumed since the previous reply (an honest harness: ~0)
    cpu_ns: int  # kernel CPU time of the window, whatever the meter
    # Memory, read by the host from /proc/<pid>/status of the process, plus what the kernel
    # holds for it when it has a memory cgroup (bytes; None when the endpoint does not track
    # memory or /proc could not be read). See MemoryProbe.
    rss_before: int | None = None  # the process's memory right before the command was sent
    peak: int | None = None  # its peak during the command (the high-water marks at the reply)
    # peak during the command *and* the idle gap after its reply, up to the next command:
    # filled in when the next command is sent (the gap is where a signal handler would run)
    span_peak: int | None = None
    # the resident size sampled by the host while the command ran (when asked for; see
    # MemorySampler): the curve a time-memory integral is taken over
    trace: MemoryTrace | None = None


@dataclass
class CapturedOutput:
    limit: int
    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, stream: str, data: bytes) -> None:
        buf = self.stdout if stream == "stdout" else self.stderr
        room = max(0, self.limit - len(buf))
        buf += data[:room]
        self.dropped += max(0, len(data) - room)

    @property
    def total(self) -> int:
        """Bytes written to both streams so far, kept or dropped."""
        return len(self.stdout) + len(self.stderr) + self.dropped

    def as_dict(self) -> dict[str, Any]:
        return {
            "stdout": self.stdout.decode(errors="replace"),
            "stderr": self.stderr.decode(errors="replace"),
            "dropped_bytes": self.dropped,
        }


@dataclass
class _Endpoint:
    """One command/reply channel pair to one process, and that process's meter readings."""

    cmd_w: int
    reply_r: int
    meter: Meter
    cmd_fd_inside: int  # the harness's end of cmd_w: it blocks reading this fd between commands
    pid: int = 0  # host pid: its CPU clock bounds each command
    decoder: wire.FrameDecoder = field(default_factory=wire.FrameDecoder)
    pending: list[Any] = field(default_factory=list)
    seq: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    last_reading: int = 0
    memory: MemoryProbe | None = None  # the host-side peak-memory probe of this process
    last_exchange: Exchange | None = None  # its span_peak is filled by the next command

    def cpu(self) -> int:
        return time.clock_gettime_ns(_process_cpu_clock(self.pid))


_READ_SYSCALL = {"x86_64": 0, "aarch64": 63}.get(platform.machine(), -1)


def _wait_blocked(ep: _Endpoint, timeout: float = 2.0) -> bool:
    """Wait until the harness is blocked reading its next command, so that a reading taken now
    includes everything it does after a reply (and nothing of the next command).

    Reads /proc/<pid>/syscall: while a process sleeps in a system call it shows the call's number
    and arguments. True once blocked; False after ``timeout`` (the process kept running: whatever
    it does then falls into the next command's idle gap, which the profiler charges).
    """
    want = f"{_READ_SYSCALL} {ep.cmd_fd_inside:#x} "
    path = f"/proc/{ep.pid}/syscall"
    deadline = time.monotonic() + timeout
    spins = 0
    while True:
        try:
            with open(path) as fh:
                if fh.read().startswith(want):
                    return True
        except OSError:
            return False  # gone: the caller finds out when it reads the meter
        if time.monotonic() > deadline:
            return False
        spins += 1
        if spins > 50:
            time.sleep(0.0002)
