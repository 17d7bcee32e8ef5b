"""Meters: how the host reads the cost of a sandboxed process from outside it.

A meter is attached to the solution's process id and read by the host between commands, while
the process is blocked on its command channel, so the solution cannot touch the reading:

- ``cpu``: the kernel's CPU clock of the process (``clock_gettime`` on ``CLOCK_PROCESS_CPUTIME``
  of another pid), nanoseconds, user + system, precise to the nanosecond;
- ``instructions``: a hardware instruction counter opened with ``perf_event_open`` on the pid
  (user-space instructions); needs a PMU, which VMs and containers often do not expose;
- ``callgrind``: instructions counted by valgrind's callgrind, deterministic for a fixed
  interpreter, inputs and ``PYTHONHASHSEED``, 50-100x slower; the harness makes callgrind dump
  at every command boundary and the host sums the dumps.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform
import re
import shutil
import struct
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path


class MeterError(RuntimeError):
    """The meter cannot be used here, or a reading failed."""


@dataclass(frozen=True)
class MeterStatus:
    name: str
    available: bool
    detail: str


class Meter(ABC):
    name: str
    unit: str
    #: the same code and input always give the same reading (one round is enough)
    deterministic: bool = False

    @abstractmethod
    def attach(self, pid: int, out_dir: Path | None) -> None: ...

    @abstractmethod
    def read(self) -> int: ...

    def close(self) -> None:
        return None

    def wrap(self, argv: list[str], out_dir_inside: str) -> list[str]:
        return argv

    def needs_out_dir(self) -> bool:
        return False

    def to_unit(self, raw: float) -> float:
        """Convert raw readings (ns or instructions) into the reported unit."""
        return raw

    @classmethod
    @abstractmethod
    def probe(cls) -> MeterStatus: ...


# ---------------------------------------------------------------------------- cpu


def _process_cpu_clock(pid: int) -> int:
    # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) from the kernel's posix-timers.h.
    return ((~pid) << 3) | 2


class CpuMeter(Meter):
    name = "cpu"
    unit = "s"

    def __init__(self) -> None:
        self._clock: int | None = None

    def attach(self, pid: int, out_dir: Path | None) -> None:
        self._clock = _process_cpu_clock(pid)
        self.read()

    def read(self) -> int:
        if self._clock is None:
            raise MeterError("cpu meter is not attached")
        try:
            return time.clock_gettime_ns(self._clock)
        except OSError as exc:
            raise MeterError(f"cannot read the process CPU clock: {exc}") from exc

    def to_unit(self, raw: float) -> float:
        return raw / 1e9

    @classmethod
    def probe(cls) -> MeterStatus:
        try:
            time.clock_gettime_ns(_process_cpu_clock(os.getpid()))
        except (OSError, AttributeError) as exc:
            return MeterStatus(cls.name, False, f"process CPU clock unavailable: {exc}")
        return MeterStatus(
            cls.name, True, "kernel CPU clock of the solution process, read by the host (ns)"
        )


# ---------------------------------------------------------------------------- instructions

_PERF_SYSCALL = {"x86_64": 298, "aarch64": 241, "arm64": 241, "ppc64le": 319, "s390x": 331}
_PERF_TYPE_HARDWARE = 0
_PERF_COUNT_HW_INSTRUCTIONS = 1
_FLAG_EXCLUDE_KERNEL = 1 << 5
_FLAG_EXCLUDE_HV = 1 << 6


def perf_event_attr(config: int = _PERF_COUNT_HW_INSTRUCTIONS) -> bytes:
    """A PERF_ATTR_SIZE_VER0 (64-byte) perf_event_attr counting user-space instructions."""
    flags = _FLAG_EXCLUDE_KERNEL | _FLAG_EXCLUDE_HV
    # type, size, config, sample_period, sample_type, read_format, flags,
    # wakeup_events, bp_type, config1
    return struct.pack("<IIQQQQQIIQ", _PERF_TYPE_HARDWARE, 64, config, 0, 0, 0, flags, 0, 0, 0)


def perf_event_open(pid: int) -> int:
    """Open an instruction counter on ``pid``; raise MeterError explaining a failure."""
    nr = _PERF_SYSCALL.get(platform.machine())
    if nr is None:
        raise MeterError(f"perf_event_open: unknown syscall number on {platform.machine()}")
    libc = ctypes.CDLL(None, use_errno=True)
    attr = ctypes.create_string_buffer(perf_event_attr(), 64)
    fd = libc.syscall(
        nr, attr, ctypes.c_int(pid), ctypes.c_int(-1), ctypes.c_int(-1), ctypes.c_ulong(0)
    )
    if fd < 0:
        err = ctypes.get_errno()
        raise MeterError(_explain_perf_errno(err))
    return int(fd)


def _explain_perf_errno(err: int) -> str:
    name = errno.errorcode.get(err, str(err))
    if err in (errno.ENOENT, errno.EOPNOTSUPP, errno.ENODEV):
        return (
            f"perf_event_open(PERF_COUNT_HW_INSTRUCTIONS) failed with {name}: this machine "
            "exposes no hardware performance counters (no PMU, as in most VMs and containers); "
            "use --meter cpu, or --meter callgrind for exact counts"
        )
    if err in (errno.EACCES, errno.EPERM):
        paranoid = "?"
        with contextlib.suppress(OSError):
            paranoid = Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()
        return (
            f"perf_event_open failed with {name}: not permitted (perf_event_paranoid="
            f"{paranoid}); run as root or lower kernel.perf_event_paranoid"
        )
    if err == errno.ENOSYS:
        return "perf_event_open is not supported by this kernel (ENOSYS)"
    return f"perf_event_open failed with {name}"


class InstructionsMeter(Meter):
    name = "instructions"
    unit = "instructions"

    def __init__(self) -> None:
        self._fd: int | None = None

    def attach(self, pid: int, out_dir: Path | None) -> None:
        self._fd = perf_event_open(pid)

    def read(self) -> int:
        if self._fd is None:
            raise MeterError("instructions meter is not attached")
        data = os.read(self._fd, 8)
        if len(data) != 8:
            raise MeterError("short read from the perf counter")
        return int(struct.unpack("<Q", data)[0])

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @classmethod
    def probe(cls) -> MeterStatus:
        try:
            fd = perf_event_open(0)
        except MeterError as exc:
            return MeterStatus(cls.name, False, str(exc))
        os.close(fd)
        return MeterStatus(cls.name, True, "hardware instruction counter (perf_event), user space")


# ---------------------------------------------------------------------------- callgrind

CALLGRIND_MARK = "sys_call_tracing"
_TOTALS = re.compile(rb"^(?:summary|totals):\s*(\d+)", re.MULTILINE)


class CallgrindMeter(Meter):
    name = "callgrind"
    unit = "instructions"
    deterministic = True
    OUT_NAME = "cg.out"

    def __init__(self) -> None:
        self._dir: Path | None = None
        self._next = 1
        self._total = 0

    def needs_out_dir(self) -> bool:
        return True

    def wrap(self, argv: list[str], out_dir_inside: str) -> list[str]:
        valgrind = shutil.which("valgrind") or "/usr/bin/valgrind"
        # No address-space randomisation: allocation addresses feed hashing and the allocator's
        # paths, and would make counts differ run to run.
        setarch = shutil.which("setarch")
        prefix = [setarch, platform.machine(), "-R"] if setarch else []
        return [
            *prefix,
            valgrind,
            "--tool=callgrind",
            f"--callgrind-out-file={out_dir_inside}/{self.OUT_NAME}",
            f"--dump-before={CALLGRIND_MARK}",
            f"--dump-after={CALLGRIND_MARK}",
            "--dump-instr=no",
            "--compress-strings=no",
            "--compress-pos=no",
            "--log-fd=2",
            "-q",
            *argv,
        ]

    def attach(self, pid: int, out_dir: Path | None) -> None:
        if out_dir is None:
            raise MeterError("callgrind needs an output directory")
        self._dir = out_dir

    def read(self) -> int:
        """Sum every dump written so far, in order; each file is read once and removed."""
        if self._dir is None:
            raise MeterError("callgrind meter is not attached")
        while True:
            path = self._dir / f"{self.OUT_NAME}.{self._next}"
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                break
            match = _TOTALS.search(data)
            if match is None:
                raise MeterError(f"callgrind dump {path.name} has no totals line")
            self._total += int(match.group(1))
            path.unlink()
            self._next += 1
        return self._total

    @property
    def dumps(self) -> int:
        return self._next - 1

    @classmethod
    def probe(cls) -> MeterStatus:
        if shutil.which("valgrind") is None:
            return MeterStatus(
                cls.name, False, "valgrind is not installed (apt-get install valgrind)"
            )
        return MeterStatus(
            cls.name, True, "valgrind callgrind instruction counts, deterministic, ~50-100x slower"
        )


METERS: dict[str, type[Meter]] = {
    "cpu": CpuMeter,
    "instructions": InstructionsMeter,
    "callgrind": CallgrindMeter,
}


def make_meter(name: str) -> Meter:
    try:
        return METERS[name]()
    except KeyError:
        raise MeterError(f"unknown meter {name!r}; choose one of {', '.join(METERS)}") from None
