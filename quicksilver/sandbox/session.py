"""Host side of one sandboxed solution process: spawn, command, meter, limit, kill.

The host sends one command at a time and reads the meter right before sending and right after
the reply arrives, while the harness is blocked on its command channel. Every unit of the
process's cost therefore falls into exactly one window: a command's own window, or the idle gap
between a reply and the next command (which an honest harness leaves empty). The profiler
decides which windows are timed and charges any unexplained cost in the others.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import platform
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver.config import SandboxConfig
from quicksilver.faults import InfrastructureFault
from quicksilver.meters import Meter, MeterError, _process_cpu_clock
from quicksilver.sandbox import cgroup as memory_cgroup
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.runtime import wire

log = logging.getLogger(__name__)

HARNESS_PROTOCOL = 5  # must match PROTOCOL in runtime/harness.py
HARNESS_FDS = (40, 41, 42, 43)  # must match FIXED_FDS in runtime/harness.py

WORK_PREFIX = "qs-sandbox-"

# Every running session of this process, so that a signal handler can stop them all at once.
_LIVE: weakref.WeakSet[SandboxSession] = weakref.WeakSet()
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


def solution_setup(
    sandbox: SandboxConfig, isolation: iso.Isolation, *, as_bytes: int, cpu_seconds: int
) -> dict[str, Any]:
    """The privilege and limit fields of a ``setup`` command for a process that runs solution
    code: the sandbox uid (unless weak), the rlimits of ``sandbox.limits`` with the given address
    space and CPU backstop, and the recursion limit."""
    limits = sandbox.limits
    uid = sandbox.sandbox_uid if not isolation.weak else None
    return {
        "uid": uid,
        "gid": uid,
        "limits": {
            "as_bytes": as_bytes,
            "cpu_seconds": cpu_seconds,
            "nproc": limits.processes,
            "fsize_bytes": limits.file_size_mb << 20,
            "nofile": limits.open_files,
            "core": 0,
        },
        "recursion_limit": limits.recursion_limit,
    }


class SandboxError(RuntimeError):
    """Base class for a sandboxed process that did not answer as it should."""


class LimitExceeded(SandboxError):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "cpu", "wall" or "memory"


class ChildGone(SandboxError):
    """The process exited or was killed while a reply was awaited."""

    def __init__(self, message: str, returncode: int | None) -> None:
        super().__init__(message)
        self.returncode = returncode


class ProtocolViolation(SandboxError):
    """A reply out of sequence, undecodable, or not a reply at all."""


class OutputLimitExceeded(SandboxError):
    """The process wrote more than ``limits.output_kill_bytes`` to stdout/stderr and was killed.

    Not a LimitExceeded (those are time limits, status ``timeout``): callers report it as an
    error whose message starts with ``output limit:``.
    """


class MeterTampering(SandboxError):
    """The meter's readings of a process went backwards: a count or a clock that only grows
    was found lower than before (between commands, within a command's sampled trace, or across
    a command). Nothing honest does that; the process is killed and the verdict is
    ``meter-tampering`` (docs/sandbox.md, "The instruction counter")."""


class ShuttingDown(SandboxError):
    """The process is stopping (SIGTERM / SIGINT): no new sandbox starts, running ones die."""


class SandboxStartError(InfrastructureFault):
    """The sandbox could not be started: bubblewrap's setup failed, or the harness (a zygote)
    died or did not answer before its first reply. Nothing of the code ran, so this is no verdict
    on it: an infrastructure fault, retried by the Prefect layer (quicksilver/faults.py). Not a
    :class:`SandboxError`, so that no handler of a solution's failures takes it for one."""


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


class SandboxSession:
    """One sandboxed harness process (see the module docstring).

    With ``zygote=True`` the harness also holds a second channel pair that the children it forks
    (:meth:`spawn`) answer on; see :class:`ChildProcess`.
    """

    def __init__(
        self,
        config: SandboxConfig,
        meter: Meter,
        isolation: iso.Isolation | None = None,
        *,
        limit_scale: float = 1.0,
        zygote: bool = False,
        track_memory: bool = False,
    ) -> None:
        self.config = config
        self.track_memory = track_memory  # a MemoryProbe on the process (and on children)
        self.meter = meter
        self.isolation = isolation or iso.resolve(config)
        self.limit_scale = limit_scale
        self.zygote = zygote
        self.output = CapturedOutput(config.limits.output_bytes)
        self.capture = self.output  # where stdout / stderr go now (a running child's own)
        self.pid: int | None = None
        self.returncode: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._main: _Endpoint | None = None
        self._child_fds: tuple[int, int] = (-1, -1)  # host ends: child commands, child replies
        self._child_cmd_fd = -1  # the children's end, as numbered inside
        self._work: Path | None = None
        self._closed = False
        self.child: ChildProcess | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the sandboxed harness and wait for its hello.

        Raises :class:`SandboxStartError` when it cannot be started (an infrastructure fault),
        :class:`ShuttingDown` during a stop, and, unwrapped, the errors no retry mends:
        ``SandboxUnavailable`` when this machine cannot sandbox at all (no filter for its
        architecture), :class:`MeterError` when the meter cannot run here (no PMU for
        ``instructions``), :class:`ProtocolViolation` when the installed harness speaks another
        protocol than this process (the package changed under it)."""
        if shutting_down():
            raise ShuttingDown("stopping: no new sandbox is started")
        try:
            self._start()
        except (ShuttingDown, iso.SandboxUnavailable):
            raise
        except (MeterError, ProtocolViolation):
            self.kill()
            raise
        except (SandboxError, OSError) as exc:
            self.kill()
            raise SandboxStartError(f"the sandbox could not start: {exc}") from exc

    def _start(self) -> None:
        if self.isolation.weak:
            log.warning(
                "WEAK SANDBOX: running untrusted code without namespaces (no file-system or "
                "network isolation); rlimits and a scrubbed environment only"
            )
        self._work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-"))
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        inner: list[int] = [cmd_r, reply_w]
        child_fds = None
        if self.zygote:
            ccmd_r, ccmd_w = os.pipe()
            creply_r, creply_w = os.pipe()
            self._child_fds = (ccmd_w, creply_r)
            os.set_blocking(creply_r, False)
            inner += [ccmd_r, creply_w]
            child_fds = (ccmd_r, creply_w)
        # the harness moves its channels to fixed descriptors (runtime/harness.py FIXED_FDS)
        self._main = _Endpoint(cmd_w, reply_r, self.meter, HARNESS_FDS[0])
        self._child_cmd_fd = HARNESS_FDS[2] if self.zygote else -1
        info_r = info_w = seccomp_r = -1
        harness = iso.harness_argv(self.isolation, cmd_r, reply_w, child_fds=child_fds)

        if self.isolation.weak:
            argv = self.meter.wrap(harness, weak=True)
            fds: tuple[int, ...] = tuple(inner)
            env = iso.weak_env()
        else:
            info_r, info_w = os.pipe()
            try:
                seccomp_r = iso.seccomp_fd()
            except iso.SandboxUnavailable:
                for fd in (*inner, info_r, info_w):
                    os.close(fd)
                raise
            argv = iso.bwrap_argv(
                info_fd=info_w, seccomp_fd=seccomp_r, binds=self.meter.binds()
            ) + self.meter.wrap(harness, weak=False)
            fds = (*inner, info_w, seccomp_r)
            env = {"PATH": "/usr/bin:/bin"}
        setpriv = shutil.which("setpriv")
        if setpriv:
            # Kill the sandbox if this process (the thread that started it) dies.
            argv = [setpriv, "--pdeathsig", "KILL", "--", *argv]
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=fds,
                env=env,
                cwd=str(self._work),
                start_new_session=True,
            )
        finally:
            for fd in (*inner, info_w, seccomp_r):
                if fd >= 0:
                    os.close(fd)
        with _LIVE_LOCK:
            _LIVE.add(self)
        if shutting_down():  # a signal arrived while this one was starting
            self.kill()
            raise ShuttingDown("stopping: the sandbox was killed as it started")
        for stream in (self._proc.stdout, self._proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        try:
            self.pid = self._read_info(info_r) if info_r >= 0 else self._proc.pid
        finally:
            if info_r >= 0:
                os.close(info_r)
        self._main.pid = self.pid
        if self.track_memory and not self.zygote:
            self._main.memory = MemoryProbe(self.pid)
        try:
            self._greeted(self._main, 60.0)
            self.meter.attach(self.pid)
            _wait_blocked(self._main)
            self._main.last_reading = self.meter.read()
        except (MeterError, SandboxError):
            self.kill()
            raise

    def _greeted(self, ep: _Endpoint, wall: float) -> None:
        """Wait for the harness's hello (it is set up) and check that it speaks our protocol."""
        hello = self._await_reply(ep, 0, ep.cpu(), None, wall)
        if hello.get("protocol") != HARNESS_PROTOCOL:
            raise ProtocolViolation(
                f"the sandbox harness ({iso.RUNTIME_DIR}) speaks protocol "
                f"{hello.get('protocol')!r} but this process expects {HARNESS_PROTOCOL}: "
                "the installed quicksilver changed under a running process; restart it"
            )

    def _read_info(self, fd: int) -> int:
        deadline = time.monotonic() + 30
        data = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                if self._proc is not None and self._proc.poll() is not None:
                    break
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
            with contextlib.suppress(ValueError):
                return int(json.loads(data)["child-pid"])
        self.kill()
        err = self._drain_all()
        raise SandboxError(f"bubblewrap did not start the sandbox: {err or 'no child pid'}")

    # -- commands -----------------------------------------------------------------------------

    def request(
        self,
        op: str,
        *,
        cpu_limit_s: float | None = None,
        wall_limit_s: float | None = None,
        memory_limit_bytes: int | None = None,
        **fields: Any,
    ) -> Exchange:
        """Send one command to the harness and wait for its reply within the limits.

        ``memory_limit_bytes`` (with ``track_memory``): the command is stopped, as a
        :class:`LimitExceeded` of kind ``memory``, once the process's resident memory has grown
        by more than that since the command was sent (polled while the reply is awaited, and
        checked once more at the reply)."""
        if self._proc is None or self._closed or self._main is None:
            raise SandboxError("session is not running")
        return self._exchange(self._main, op, cpu_limit_s, wall_limit_s, fields, memory_limit_bytes)

    def _exchange(
        self,
        ep: _Endpoint,
        op: str,
        cpu_limit_s: float | None,
        wall_limit_s: float | None,
        fields: dict[str, Any],
        memory_limit_bytes: int | None = None,
        sample_interval_s: float | None = None,
    ) -> Exchange:
        """One command and its reply; ``sample_interval_s`` (with a memory probe): the host
        samples the process's memory that often while the command runs (``Exchange.trace``)."""
        seq = next(ep.seq)
        try:
            before = ep.meter.read()
            cpu_before = ep.cpu()
        except (MeterError, OSError) as exc:
            raise self._gone(f"the process vanished before the command ({exc})") from exc
        if before < ep.last_reading:
            self._kill_endpoint(ep)
            raise MeterTampering(
                f"the {ep.meter.name} reading went backwards between commands, from "
                f"{ep.last_reading} to {before}, before {op!r}"
            )
        idle = before - ep.last_reading
        rss_before = self._memory_before(ep)
        sampler = None
        if sample_interval_s and ep.memory is not None and rss_before is not None:
            first = MemoryTrace(sample_interval_s)
            first.add(before, rss_before, rss_before)  # the mark was just reset to this size
            sampler = MemorySampler(ep.memory, ep.meter, first)
        trace: MemoryTrace | None = None
        try:
            try:
                wire.write_frame(ep.cmd_w, {"op": op, "seq": seq, **fields})
            except (BrokenPipeError, OSError) as exc:
                raise self._gone(f"the sandbox closed its command channel ({exc})") from exc
            reply = self._await_reply(
                ep, seq, cpu_before, cpu_limit_s, wall_limit_s, memory_limit_bytes, rss_before
            )
            try:
                if op != "exit":
                    _wait_blocked(ep)
                after = ep.meter.read()
                cpu_after = ep.cpu()
            except (MeterError, OSError) as exc:
                raise self._gone(f"process vanished after replying ({exc})") from exc
        finally:
            if sampler is not None:
                trace = sampler.stop()
        sampled_rewind = trace.backwards_at if trace is not None else None
        ep.last_reading = after
        peak = None
        if ep.memory is not None and op != "exit" and rss_before is not None:
            end = ep.memory.reading(full=True) if trace is not None else None
            if end is not None and trace is not None:
                trace.add(after, *end)  # the window's last reading: the process is blocked
                peak = end[1]
            else:
                trace = None
                peak = ep.memory.peak()
        rewound = trace.backwards_at if trace is not None else sampled_rewind
        if after < before or rewound is not None:
            # A count only grows; one found lower than an earlier reading was written back by
            # the process (docs/sandbox.md, "The instruction counter"). A rewind that ends above
            # the command's first reading is still caught when a sample in between saw more.
            self._kill_endpoint(ep)
            where = (
                f"from {before} to {after} across the command"
                if after < before
                else f"within the command (reading {rewound} of its sampled trace)"
            )
            raise MeterTampering(f"the {ep.meter.name} reading went backwards {where} ({op!r})")
        ex = Exchange(
            reply=reply,
            cost=after - before,
            idle=idle,
            cpu_ns=cpu_after - cpu_before,
            rss_before=rss_before,
            peak=peak,
            trace=trace,
        )
        ep.last_exchange = ex
        return ex

    def _memory_before(self, ep: _Endpoint) -> int | None:
        """Close the previous command's span (its peak up to now), reset the peak, and return
        the resident set size the next command starts from. The process is blocked reading
        its command channel: nothing it does falls between the reading and the reset."""
        probe = ep.memory
        if probe is None:
            return None
        last = ep.last_exchange
        if last is not None and last.peak is not None:
            span = probe.peak()
            last.span_peak = max(last.peak, span) if span is not None else None
        return probe.reset()

    def _await_reply(
        self,
        ep: _Endpoint,
        seq: int,
        cpu_before: int,
        cpu_limit_s: float | None,
        wall_limit_s: float | None,
        memory_limit_bytes: int | None = None,
        rss_before: int | None = None,
    ) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout and self._proc.stderr
        memory_cap = None
        if memory_limit_bytes is not None and ep.memory is not None and rss_before is not None:
            memory_cap = rss_before + memory_limit_bytes
        scale = self.limit_scale
        cpu_limit = None if cpu_limit_s is None else int(cpu_limit_s * scale * 1e9)
        wall_deadline = None if wall_limit_s is None else time.monotonic() + wall_limit_s * scale
        streams = {
            ep.reply_r: "reply",
            self._proc.stdout.fileno(): "stdout",
            self._proc.stderr.fileno(): "stderr",
        }
        while True:
            if ep.pending:
                reply = ep.pending.pop(0)
                if not isinstance(reply, dict) or reply.get("seq") != seq:
                    self._kill_endpoint(ep)
                    raise ProtocolViolation(
                        f"reply out of sequence (expected seq {seq}, got "
                        f"{str(reply)[:120]!r}): something other than the harness wrote to "
                        "the reply channel"
                    )
                if ep.pending:
                    self._kill_endpoint(ep)
                    raise ProtocolViolation("more replies than commands on the reply channel")
                self._check_memory(ep, memory_cap, memory_limit_bytes)
                return reply
            timeout = 0.05
            if wall_deadline is not None:
                timeout = max(0.0, min(timeout, wall_deadline - time.monotonic()))
            ready, _, _ = select.select(list(streams), [], [], timeout)
            for fd in ready:
                try:
                    chunk = os.read(fd, 1 << 20)
                except BlockingIOError:
                    continue
                name = streams[fd]
                if name == "reply":
                    if not chunk:
                        raise self._gone("the sandboxed process exited during the command")
                    try:
                        ep.pending.extend(ep.decoder.feed(chunk))
                    except wire.WireError as exc:
                        self._kill_endpoint(ep)
                        raise ProtocolViolation(f"undecodable reply: {exc}") from exc
                elif chunk:
                    self.capture.add(name, chunk)
                    self._check_output(ep)
            if ep.pending:
                continue
            if ep is not self._main and not _alive(ep.pid):
                raise self._gone("the sandboxed process exited during the command")
            if cpu_limit is not None:
                try:
                    used = ep.cpu() - cpu_before
                except OSError:
                    raise self._gone("the sandboxed process exited during the command") from None
                if used > cpu_limit:
                    self._kill_endpoint(ep)
                    raise LimitExceeded("cpu", f"CPU time limit of {cpu_limit / 1e9:.3g}s exceeded")
            if wall_deadline is not None and time.monotonic() > wall_deadline:
                self._kill_endpoint(ep)
                raise LimitExceeded("wall", f"wall time limit of {wall_limit_s}s exceeded")
            self._check_memory(ep, memory_cap, memory_limit_bytes)

    def _check_memory(self, ep: _Endpoint, cap: int | None, limit: int | None) -> None:
        if cap is None or ep.memory is None:
            return
        peak = ep.memory.peak()
        if peak is not None and peak > cap:
            self._kill_endpoint(ep)
            raise LimitExceeded(
                "memory",
                f"memory wall: peak memory grew by {(peak - cap + (limit or 0)) >> 20} MiB, "
                f"more than the {(limit or 0) >> 20} MiB allowed",
            )

    def _kill_endpoint(self, ep: _Endpoint) -> None:
        """Kill the process behind ``ep``: a child alone, or the whole sandbox."""
        if ep is self._main:
            self.kill()
        else:
            with contextlib.suppress(OSError):
                os.kill(ep.pid, signal.SIGKILL)

    def _check_output(self, ep: _Endpoint) -> None:
        limit = self.config.limits.output_kill_bytes
        if limit is not None and self.capture.total > limit:
            self._kill_endpoint(ep)
            raise OutputLimitExceeded(
                f"output limit: the solution wrote more than {limit} bytes to stdout/stderr "
                f"(killed after {self.capture.total})"
            )

    def _gone(self, message: str) -> SandboxError:
        if shutting_down():
            return ShuttingDown(f"stopping: the sandbox was killed ({message})")
        if self.child is not None and not self.child.finished:
            return ChildGone(message, None)  # the zygote reaps it and says how it ended
        rc = self._reap(timeout=5)
        detail = self._drain_all()
        how = _describe_returncode(rc)
        text = f"{message}; {how}" + (f"; stderr: {detail}" if detail else "")
        return ChildGone(text, rc)

    # -- zygote -------------------------------------------------------------------------------

    def spawn(self, setup: dict[str, Any], *, wall_limit_s: float = 30.0) -> ChildProcess:
        """Fork a child of the zygote; it answers on the child channels (see ChildProcess)."""
        if not self.zygote:
            raise SandboxError("spawn needs a zygote session")
        if self.child is not None and not self.child.finished:
            raise SandboxError("the previous child has not been reaped")
        self._drain_child_channel()
        ex = self.request("spawn", wall_limit_s=wall_limit_s, **setup)
        if not ex.reply.get("ok"):
            raise SandboxError(f"spawn failed: {ex.reply.get('error')}")
        assert self.pid is not None
        host_pid = _find_child(self.pid)
        child = ChildProcess(self, int(ex.reply["pid"]), host_pid)
        self.child = child
        self.capture = child.output
        try:
            self._greeted(child.endpoint, wall_limit_s)
            child.endpoint.meter.attach(host_pid)
            _wait_blocked(child.endpoint)
            child.endpoint.last_reading = child.endpoint.meter.read()
        except (MeterError, SandboxError, OSError):
            child.finish()
            raise
        return child

    def set_memory_limit(self, extra_bytes: int) -> None:
        """Cap the zygote's address space at what it maps now plus ``extra_bytes``; children
        inherit the cap at fork. Set from outside: an emulator ignores a guest's own RLIMIT_AS,
        and a solution cannot raise a hard limit."""
        import resource

        assert self.pid is not None
        limit = _vm_size(self.pid) + extra_bytes
        resource.prlimit(self.pid, resource.RLIMIT_AS, (limit, limit))

    def _drain_child_channel(self) -> None:
        """Throw away whatever a previous child left on the child reply channel."""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._child_fds[1], 1 << 20):
                pass

    # -- teardown -----------------------------------------------------------------------------

    def kill(self) -> None:
        if self.pid is not None and self.pid != getattr(self._proc, "pid", None):
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        if self._proc is not None:
            with contextlib.suppress(OSError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self._proc.kill()
        self._reap(timeout=5)

    def _reap(self, timeout: float) -> int | None:
        if self._proc is None:
            return None
        try:
            self.returncode = self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            self.returncode = self._proc.wait()
        return self.returncode

    def _drain_all(self) -> str:
        if self._proc is None:
            return ""
        for name, stream in (("stdout", self._proc.stdout), ("stderr", self._proc.stderr)):
            if stream is None:
                continue
            while True:
                try:
                    chunk = os.read(stream.fileno(), 1 << 20)
                except (BlockingIOError, OSError, ValueError):
                    break
                if not chunk:
                    break
                self.capture.add(name, chunk)
        tail = self.capture.stderr[-400:].decode(errors="replace").strip()
        return tail

    def close(self) -> None:
        if self._closed:
            return
        if self.child is not None and not self.child.finished:
            with contextlib.suppress(SandboxError, OSError):
                self.child.finish()
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(SandboxError, OSError):
                self.request("exit", wall_limit_s=5)
        self.kill()
        self._drain_all()
        self.meter.close()
        if self._main is not None and self._main.memory is not None:
            self._main.memory.close()
        fds = [*self._child_fds]
        if self._main is not None:
            fds += [self._main.cmd_w, self._main.reply_r]
        for fd in fds:
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._proc is not None:
            for stream in (self._proc.stdout, self._proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
        with _LIVE_LOCK:
            _LIVE.discard(self)
        self._closed = True

    def __enter__(self) -> SandboxSession:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class ChildEnd:
    """How a child ended, as its parent (the zygote) saw it in wait4."""

    exit_code: int | None
    cpu_seconds: float
    maxrss_kb: int
    killed: bool  # the host killed it (a limit, a protocol violation, or cleanup)


class ChildProcess:
    """A child of a zygote: the process that loads and runs one solution for one pass.

    Commands go to it on the child channels; the meter reads *its* host pid. ``finish`` ends it
    (``exit``, or SIGKILL if it does not answer) and has the zygote reap it.
    """

    def __init__(self, session: SandboxSession, ns_pid: int, host_pid: int) -> None:
        self.session = session
        self.ns_pid = ns_pid
        self.host_pid = host_pid
        ccmd_w, creply_r = session._child_fds
        self.endpoint = _Endpoint(
            ccmd_w, creply_r, session.meter.for_child(), session._child_cmd_fd, pid=host_pid
        )
        if session.track_memory:
            # in a memory cgroup of its own before it runs any solution code (it has not yet
            # answered its hello), so that what the kernel holds for it is counted too
            self.endpoint.memory = MemoryProbe(host_pid, memory_cgroup.attach(host_pid))
        self.output = CapturedOutput(session.config.limits.output_bytes)
        self.finished = False
        self.killed = False
        self.end: ChildEnd | None = None

    def request(
        self,
        op: str,
        *,
        cpu_limit_s: float | None = None,
        wall_limit_s: float | None = None,
        sample_interval_s: float | None = None,
        **fields: Any,
    ) -> Exchange:
        if self.finished:
            raise SandboxError("the child has ended")
        try:
            return self.session._exchange(
                self.endpoint,
                op,
                cpu_limit_s,
                wall_limit_s,
                fields,
                sample_interval_s=sample_interval_s,
            )
        except SandboxError:
            self.killed = True  # a limit, a protocol violation or a crash: no polite exit
            raise

    def finish(self) -> ChildEnd:
        """End the child (politely when it still answers) and have the zygote reap it."""
        if self.end is not None:
            return self.end
        session = self.session
        if not self.killed and _alive(self.host_pid):
            try:
                session._exchange(self.endpoint, "exit", None, 5.0, {})
            except SandboxError:
                self.killed = True
        deadline = time.monotonic() + 1.0
        while not self.killed and _alive(self.host_pid) and time.monotonic() < deadline:
            time.sleep(0.0005)
        if _alive(self.host_pid):
            with contextlib.suppress(OSError):
                os.kill(self.host_pid, signal.SIGKILL)
        self.finished = True
        session.capture = session.output
        self.endpoint.meter.close()
        try:
            ex = session.request("reap", wall_limit_s=30.0)
        finally:
            if self.endpoint.memory is not None:
                self.endpoint.memory.close()  # its cgroup goes once the child is reaped
        reply = ex.reply
        self.end = ChildEnd(
            exit_code=reply.get("exit_code"),
            cpu_seconds=float(reply.get("cpu_seconds") or 0.0),
            maxrss_kb=int(reply.get("maxrss_kb") or 0),
            killed=self.killed,
        )
        session._drain_child_channel()
        return self.end


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
