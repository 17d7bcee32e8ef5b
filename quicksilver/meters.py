"""Meters: how the host reads the cost of a sandboxed process from outside it.

A meter is attached to a process id and read by the host between commands, while the process is
blocked on its command channel, so the solution cannot touch the reading:

- ``icount`` (the default): guest instructions counted while the interpreter runs under QEMU's
  user-mode emulator (``qemu-x86_64``) with a small TCG plugin (sandbox/meter/qscount.c) that adds
  each translation block's instruction count to a counter; the host reads that counter from the
  process's memory (``/proc/<pid>/mem``). Deterministic: the same code on the same input in the
  same start state counts the same, whatever else the machine does. No hardware counters needed;
  the interpreter runs about 10x slower than natively;
- ``cpu``: the kernel's CPU clock of the process (``clock_gettime`` on ``CLOCK_PROCESS_CPUTIME``
  of another pid), nanoseconds, user + system;
- ``instructions``: a hardware instruction counter opened with ``perf_event_open`` on the pid
  (user-space instructions); needs a PMU, which VMs and containers often do not expose.

(An earlier ``callgrind`` meter read valgrind's dump files, which the measured process could
write itself; ``icount`` replaces it.)
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import hashlib
import os
import platform
import shutil
import struct
import subprocess
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
    #: how much slower the interpreter runs under this meter (CPU and wall limits are scaled)
    slowdown: float = 1.0

    @abstractmethod
    def attach(self, pid: int) -> None: ...

    @abstractmethod
    def read(self) -> int: ...

    def close(self) -> None:
        return None

    def for_child(self) -> Meter:
        """A meter of the same kind for a child the attached process forks (not attached)."""
        return type(self)()

    def wrap(self, argv: list[str], *, weak: bool) -> list[str]:
        """The command line that runs ``argv`` under this meter (inside the sandbox)."""
        return argv

    def binds(self) -> list[tuple[str, str]]:
        """Host files the sandbox must see read-only (host path, path inside)."""
        return []

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

    def attach(self, pid: int) -> None:
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
            "use --meter icount for exact counts, or --meter cpu"
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

    def attach(self, pid: int) -> None:
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


# ---------------------------------------------------------------------------- icount

QSCOUNT_MAGIC = b"QSCOUNT-v2-MAGIC"
EXEC_REFUSED_EXIT = 121  # the plugin ends a process that calls execve (QS_EXEC_REFUSED)
MAP_REFUSED_EXIT = 122  # ... or that maps executable memory from a writable place (QS_MAP_REFUSED)
KERNEL_BYTE_COST = 1
"""Instructions the icount plugin charges per byte a system call moves (read, write and their
vector, positional and socket forms, getdents64, getrandom): the emulator does not count what the
kernel does for the guest, and moving data through the kernel must not be cheaper than moving it
in Python (about 0.25 instructions per byte under the emulator). docs/sandbox.md."""
PLUGIN_SOURCE = Path(__file__).resolve().parent / "sandbox" / "meter" / "qscount.c"
DATA_FILES = ("sandbox/meter/*.c",)  # compiled at run time: part of the stage keys
INSIDE_PLUGIN = "/qs/meter/qscount.so"
GUEST_BASE = "0x100000000"  # guest address 0 sits at host 4 GiB, clear of the emulator's own
_QEMU_ARCH = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


def qemu_binary() -> str | None:
    """The user-mode emulator for this machine's own architecture, if installed."""
    arch = _QEMU_ARCH.get(platform.machine().lower())
    return shutil.which(f"qemu-{arch}") if arch else None


def _plugin_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quicksilver" / "meters"


@functools.lru_cache(maxsize=1)
def plugin_path() -> Path:
    """The compiled counting plugin, built with gcc on first use and cached by source digest."""
    source = PLUGIN_SOURCE.read_bytes()
    digest = hashlib.sha256(source + platform.machine().encode()).hexdigest()[:16]
    target = _plugin_cache_dir() / f"qscount-{digest}.so"
    if target.exists():
        return target
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        raise MeterError(
            "the icount meter compiles a small QEMU plugin and needs gcc: apt-get install gcc"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    proc = subprocess.run(
        [cc, "-O2", "-shared", "-fPIC", "-o", str(tmp), str(PLUGIN_SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise MeterError(f"compiling {PLUGIN_SOURCE.name} failed: {proc.stderr.strip()[:400]}")
    tmp.chmod(0o644)
    os.replace(tmp, target)
    return target


def _counter_address(pid: int, plugin: Path) -> int:
    """Where the plugin's counter lives in ``pid``: its magic in the plugin's writable mapping.

    Only mappings of the plugin file that existed when the emulator started are searched (the
    host locates the counter before any solution code runs, and a forked child inherits it at
    the same address).
    """
    name = str(plugin)
    names = (plugin.name, Path(INSIDE_PLUGIN).name)  # seen from the host, or inside bwrap
    with open(f"/proc/{pid}/maps") as fh:
        ranges = []
        for line in fh:
            parts = line.split(maxsplit=5)
            if len(parts) == 6 and Path(parts[5].strip()).name in names and "w" in parts[1]:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                ranges.append((lo, hi))
    if not ranges:
        raise MeterError(f"pid {pid} has no writable mapping of {name}: is qemu running it?")
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for lo, hi in ranges:
            data = os.pread(mem.fileno(), hi - lo, lo)
            at = data.find(QSCOUNT_MAGIC)
            if at >= 0:
                return lo + at + len(QSCOUNT_MAGIC)
    raise MeterError(f"the counter of {name} was not found in pid {pid}")


class IcountMeter(Meter):
    """Instructions the process executed, counted by a QEMU plugin and read from its memory."""

    name = "icount"
    unit = "instructions"
    deterministic = True
    slowdown = 15.0
    #: extra plugin arguments; ``("exec_maps=allow",)`` turns the plugin's executable-mapping
    #: guard off, for tests of the host's tampering detection only (qscount.c)
    plugin_args: tuple[str, ...] = ()

    def __init__(self, address: int | None = None) -> None:
        self._address = address
        self._fd: int | None = None

    def wrap(self, argv: list[str], *, weak: bool) -> list[str]:
        qemu = qemu_binary()
        if qemu is None:
            raise MeterError("the icount meter needs qemu-user: apt-get install qemu-user")
        plugin = str(plugin_path()) if weak else INSIDE_PLUGIN
        args = [f"byte_cost={KERNEL_BYTE_COST}", *self.plugin_args]
        if weak:
            # the weak sandbox binds nothing read-only: the guard would refuse the interpreter's
            # own libraries (and the weak mode contains nothing anyway: docs/sandbox.md)
            args.append("exec_maps=allow")
        # -seed: the guest's random bytes (AT_RANDOM, getrandom) come from a seeded generator;
        # -B: a fixed guest base, so the guest's memory is laid out the same in every sandbox
        # whatever the host's address randomisation does to the emulator's own mappings
        spec = ",".join([plugin, *dict.fromkeys(args)])
        return [qemu, "-seed", "1", "-B", GUEST_BASE, "-plugin", spec, *argv]

    def binds(self) -> list[tuple[str, str]]:
        return [(str(plugin_path()), INSIDE_PLUGIN)]

    def attach(self, pid: int) -> None:
        if self._address is None:
            self._address = _counter_address(pid, plugin_path())
        self.close()
        try:
            self._fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
        except OSError as exc:
            raise MeterError(f"cannot read the memory of pid {pid}: {exc}") from exc
        self.read()

    def for_child(self) -> IcountMeter:
        return IcountMeter(self._address)

    def read(self) -> int:
        if self._fd is None or self._address is None:
            raise MeterError("icount meter is not attached")
        try:
            data = os.pread(self._fd, 8, self._address)
        except OSError as exc:
            raise MeterError(f"cannot read the instruction counter: {exc}") from exc
        if len(data) != 8:
            raise MeterError("short read of the instruction counter")
        return int.from_bytes(data, "little")

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    @classmethod
    def probe(cls) -> MeterStatus:
        qemu = qemu_binary()
        if qemu is None:
            return MeterStatus(
                cls.name, False, "qemu-user is not installed (apt-get install qemu-user)"
            )
        try:
            plugin = plugin_path()
        except MeterError as exc:
            return MeterStatus(cls.name, False, str(exc))
        return MeterStatus(
            cls.name,
            True,
            f"instructions counted under {Path(qemu).name} by {plugin.name}, read from the "
            "process's memory by the host; deterministic",
        )


METERS: dict[str, type[Meter]] = {
    "icount": IcountMeter,
    "cpu": CpuMeter,
    "instructions": InstructionsMeter,
}


def make_meter(name: str) -> Meter:
    try:
        return METERS[name]()
    except KeyError:
        raise MeterError(f"unknown meter {name!r}; choose one of {', '.join(METERS)}") from None
