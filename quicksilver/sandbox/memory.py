"""A sandboxed process's memory, read by the host: the probe (resident size and what the kernel
holds for it), and the sampler that draws one command's memory curve."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from dataclasses import dataclass, field

from quicksilver.meters import Meter, MeterError
from quicksilver.sandbox import cgroup as memory_cgroup
from quicksilver.sandbox.procfs import _alive

log = logging.getLogger("quicksilver.sandbox.session")


@dataclass
class MemoryTrace:
    """Readings of one command's memory curve, all taken by the host (see MemorySampler).

    ``clock`` is the meter's raw reading (the process's CPU nanoseconds, or its instructions
    under icount), ``rss`` the resident size and ``marks`` the high-water mark (never reset
    within the command), bytes. The first reading is taken as the command is sent, the last once
    the process is blocked on its next command again; those in between every ``interval_s``
    (nominal) of host wall time, less often once a long command has ``TRACE_POINTS`` of them.
    ``wall_s`` is how long the sampling ran, by the host's clock.
    """

    interval_s: float
    clock: list[int] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    wall_s: float = 0.0
    # the first reading whose clock was below the one before it (a count rewound mid-command)
    backwards_at: int | None = None

    def add(self, clock: int, rss: int, mark: int) -> None:
        if self.clock and clock < self.clock[-1] and self.backwards_at is None:
            self.backwards_at = len(self.clock)
        self.clock.append(clock)
        self.rss.append(rss)
        self.marks.append(max(mark, self.marks[-1]) if self.marks else mark)


# readings at the nominal interval before it stretches (MemorySampler._interval): a command of
# T seconds gets about TRACE_POINTS * (1 + ln(T / (TRACE_POINTS * interval))) readings
TRACE_POINTS = 2000


class MemorySampler:
    """A host thread that reads a process's resident size every ``interval_s`` while one command
    runs (stretched for long commands: ``_interval``), paired with the meter's reading of the
    same moment.

    Everything is read from outside the process: ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``),
    its memory cgroup's kernel memory when it has one (``MemoryProbe.reading``), and the meter
    (the process's CPU clock, or the emulator's counter read from its memory by the host). The
    process cannot see when it is sampled, nor change what is read. The thread only reads; it
    never resets the high-water mark, so the command's peak stays what the probe says. Sampling
    stops at the first reading that fails (the process is gone: the command fails anyway).
    """

    def __init__(self, probe: MemoryProbe, meter: Meter, trace: MemoryTrace) -> None:
        self.probe = probe
        self.meter = meter
        self.trace = trace
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="qs-memory-sampler", daemon=True)
        self._thread.start()

    def _interval(self) -> float:
        """``interval_s`` for the first ``TRACE_POINTS`` readings, then longer in step with the
        command's age: a call of a minute would otherwise cost 60,000 readings (about 5% of a
        core, beside a pass that needs the core), where a few thousand draw the same curve."""
        return max(self.trace.interval_s, (time.monotonic() - self._started) / TRACE_POINTS)

    def _run(self) -> None:
        while not self._stop.wait(self._interval()):
            try:
                clock = self.meter.read()
            except (MeterError, OSError):
                return
            reading = self.probe.reading()
            if reading is None or self._stop.is_set():
                return
            self.trace.add(clock, *reading)

    def stop(self) -> MemoryTrace:
        """Stop sampling (the readings so far stay) and return the trace."""
        self._stop.set()
        self._thread.join()
        self.trace.wall_s = time.monotonic() - self._started
        return self.trace


class MemoryProbe:
    """The memory of one sandboxed process, read by the host: its resident set size and, with a
    memory cgroup (``sandbox/cgroup.py``), what the kernel holds for it beyond its map.

    The kernel keeps a high-water mark of each process's resident set size (``VmHWM`` in
    ``/proc/<pid>/status``). Writing ``5`` to ``/proc/<pid>/clear_refs`` resets it to the
    current resident size, so reset-before / read-after brackets one command. Both files are
    the host's: inside the sandbox ``/proc`` is a read-only mount of another PID namespace and
    the process runs as another uid, so it can neither reset nor fake the mark; ``resource``
    and every other function in its own process play no part. The mark covers every thread of
    the process (they share one address space); a child process (fork) would not be covered,
    which is why the sandbox refuses forks by default (``limits.processes`` = 1).

    With a cgroup, every figure also counts memory held through the kernel since the probe
    started: the cgroup's kernel memory growth (pipe buffers, page tables, other objects charged
    to the process) and the shmem it was charged that the process does not map (a ``memfd`` or a
    tmpfs file written, never mapped: cgroup shmem growth less ``RssShmem`` growth). Mapped
    pages stay counted by the resident size alone, so an honest process's figures do not move
    (no per-CPU batching, no copy-on-write copies of the zygote's pages). A peak adds the
    high-water marks of the resident size and of the kernel memory, which need not have been
    reached at the same moment: an upper bound. Shmem has no mark: it is read when a command
    starts and ends (the larger counts).

    Readings are bytes; a probe whose files cannot be used (no ``clear_refs``, not allowed)
    says so once in the log and returns None from then on. ``source`` names what the readings
    rest on (``rss+cgroup-v1``, ``rss``: see ``RunResult.memory_source``).
    """

    def __init__(self, pid: int, cgroup: memory_cgroup.ChildCgroup | None = None) -> None:
        self.pid = pid
        self.broken: str | None = None
        self.cgroup = cgroup
        # /proc/<pid>/status, opened once: a pread costs ~10 us, an open-read-close ~40 us
        try:
            self._status_fd = os.open(f"/proc/{pid}/status", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._status_fd = -1
        self._kernel0 = self._shmem0 = self._rss_shmem0 = 0  # the cgroup's starting point
        self._unmapped = 0  # shmem held but not mapped, as of the last reset
        if cgroup is not None:
            status = self._status()
            try:
                if status is None:
                    raise OSError(f"/proc/{pid}/status cannot be read")
                self._kernel0, self._shmem0 = cgroup.kernel(), cgroup.shmem()
                self._rss_shmem0 = status[2]
            except (OSError, ValueError) as exc:
                log.info("pid %d: kernel-held memory not measured: %s", pid, exc)
                cgroup.remove()
                self.cgroup = None
        self.source = self.cgroup.source if self.cgroup else memory_cgroup.MEMORY_SOURCE_RSS

    def _fail(self, exc: OSError) -> None:
        if self.broken is None:
            self.broken = str(exc)
            log.warning("memory of pid %d cannot be measured: %s", self.pid, exc)

    def _status(self) -> tuple[int, int, int] | None:
        """VmRSS, VmHWM and RssShmem (bytes), from one read of /proc/<pid>/status."""
        if self._status_fd < 0:
            return None
        try:
            data = os.pread(self._status_fd, 8192, 0)
            rss, mark, rss_shmem = (_status_kb(data, key) * 1024 for key in _STATUS_KEYS)
        except (OSError, ValueError, IndexError):
            return None
        return rss, mark, rss_shmem

    def _kernel(self, charged: int) -> int:
        return max(0, charged - self._kernel0)

    def _unmapped_shmem(self, shmem: int, rss_shmem: int) -> int:
        return max(0, shmem - self._shmem0 - max(0, rss_shmem - self._rss_shmem0))

    def reset(self) -> int | None:
        """Reset the high-water marks to the current size, and return that size."""
        if self.broken is not None:
            return None
        try:
            with open(f"/proc/{self.pid}/clear_refs", "wb", buffering=0) as fh:
                fh.write(b"5")
        except OSError as exc:
            if _alive(self.pid):
                self._fail(exc)
            return None
        cg = self.cgroup
        try:
            if cg is not None:
                cg.reset_peak()
            status = self._status()
            if status is None:
                return None
            rss, _, rss_shmem = status
            if cg is None:
                return rss
            self._unmapped = self._unmapped_shmem(cg.shmem(), rss_shmem)
            return rss + self._kernel(cg.kernel()) + self._unmapped
        except (OSError, ValueError):
            return None

    def peak(self) -> int | None:
        """The high-water mark since the last reset."""
        now = self.reading(full=True)
        return None if now is None else now[1]

    def reading(self, *, full: bool = False) -> tuple[int, int] | None:
        """The size and the high-water mark now. Without ``full`` (the sampler's readings) the
        cgroup adds its kernel memory now and the unmapped shmem of the last reset (one more
        file read); with it (a command's last reading) the mark takes the kernel memory's own
        high-water mark, and shmem is read again."""
        if self.broken is not None:
            return None
        status = self._status()
        if status is None:
            return None
        rss, mark, rss_shmem = status
        cg = self.cgroup
        if cg is None:
            return rss, mark
        try:
            kernel = self._kernel(cg.kernel())
            if not full:
                return rss + kernel + self._unmapped, mark + kernel + self._unmapped
            unmapped = self._unmapped_shmem(cg.shmem(), rss_shmem)
            kernel_mark = self._kernel(cg.kernel_peak())
            return rss + kernel + unmapped, mark + kernel_mark + max(unmapped, self._unmapped)
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        """Close the status file and remove the cgroup (the process has been reaped)."""
        if self._status_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._status_fd)
            self._status_fd = -1
        if self.cgroup is not None:
            self.cgroup.remove()


_STATUS_KEYS = (b"\nVmRSS:", b"\nVmHWM:", b"\nRssShmem:")


def _status_kb(data: bytes, key: bytes) -> int:
    """The value of field ``key`` (kB) in the text of /proc/<pid>/status."""
    start = data.index(key) + len(key)
    return int(data[start : data.index(b"\n", start)].split()[0])
