"""A memory cgroup per sandboxed child: what the kernel holds for a process beyond its own map.

A process's resident size (``VmRSS`` / ``VmHWM``) counts the pages mapped into it. Memory a
process holds *through the kernel* is not among them: pipe buffers, page tables, socket buffers,
other kernel objects, and shmem pages (a ``memfd``, a tmpfs file, SysV shm) that are not mapped.
A memory cgroup is charged for all of it, whoever maps it, so the host puts every child of a
zygote in a cgroup of its own (:func:`attach`) and adds to the child's resident size what the
cgroup was charged beyond it (``session.MemoryProbe``).

Which files:

- cgroup v1 (``memory`` controller on a ``cgroup`` mount): ``memory.kmem.usage_in_bytes`` and
  its high-water mark ``memory.kmem.max_usage_in_bytes`` (reset by writing ``0``): kernel
  memory charged to the cgroup, exact to the page (unlike ``memory.usage_in_bytes``, which is
  charged in per-CPU batches of up to 64 pages); ``memory.stat`` ``shmem``.
- cgroup v2 (``memory`` in the parent's ``cgroup.controllers``): ``memory.stat`` ``kernel`` +
  ``sock`` and ``shmem``. There is no high-water mark of kernel memory alone, so a peak is what
  the readings saw. (No v2 memory controller was at hand when this was written: the v2 path has
  been tried only on a directory laid out like one.)

Neither ``memory.usage_in_bytes`` nor ``memory.current`` is used: they also hold the copies a
child's writes make of pages it shares with the zygote (copy-on-write), which ``VmRSS`` already
counts, and page cache. Charges already made stay where they were made (``move_charge_at_
immigrate`` is left at 0), so only what the child is charged after it is moved counts.

The cgroups are made under this process's own memory cgroup (``/proc/self/cgroup``), named
``qs-<host pid>-<random>``, and removed when the child is reaped; :func:`memory_controller` removes
empty ones left by a process that is gone. Where no memory controller is usable (not root, no
writable cgroup, no memory controller), :func:`attach` returns None and memory falls back to the
resident size alone (``MEMORY_SOURCE_RSS``); the reason is logged once.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

log = logging.getLogger(__name__)

PROC_SELF_CGROUP = Path("/proc/self/cgroup")
PROC_SELF_MOUNTINFO = Path("/proc/self/mountinfo")

MEMORY_SOURCE_RSS = "rss"
"""What a memory reading rests on without a cgroup: the process's resident size alone."""

_NAME = re.compile(r"qs-(\d+)-")
_WARNED = threading.Event()
_LOCK = threading.Lock()

# read size for memory.stat (v1: ~1.2 KB; v2: ~2-3 KB) in one pread
_STAT_BYTES = 16384


@dataclass(frozen=True)
class MemoryController:
    """Where child memory cgroups are made: this process's own memory cgroup."""

    version: Literal[1, 2]
    parent: Path

    @property
    def source(self) -> str:
        """The memory source a child in one of these cgroups reports (``RunResult``)."""
        return f"rss+cgroup-v{self.version}"


def _unescape(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal (``\\040``)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _mounts(mountinfo: str) -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, file-system type, super options) of every mount in ``mountinfo``."""
    out = []
    for line in mountinfo.splitlines():
        left, sep, right = line.partition(" - ")
        fields, rest = left.split(), right.split()
        if not sep or len(fields) < 5 or len(rest) < 3:
            continue
        out.append((_unescape(fields[3]), _unescape(fields[4]), rest[0], set(rest[2].split(","))))
    return out


def _under(mount_root: str, mount_point: str, path: str) -> Path | None:
    """Where cgroup ``path`` (as /proc/self/cgroup names it) is in a mount of its hierarchy."""
    root = mount_root.rstrip("/")
    if root and path != root and not path.startswith(root + "/"):
        return None
    return Path(mount_point) / path[len(root) :].lstrip("/")


def locate(cgroup_text: str, mountinfo: str) -> tuple[MemoryController | None, str]:
    """This process's memory cgroup from the text of /proc/self/cgroup and /proc/self/mountinfo:
    the controller, or None and why there is none. v1 first: a controller bound to a v1
    hierarchy is not available on v2."""
    v1_path = v2_path = None
    for line in cgroup_text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hid, controllers, path = parts
        if "memory" in controllers.split(","):
            v1_path = path
        elif hid == "0" and controllers == "":
            v2_path = path
    mounts = _mounts(mountinfo)
    if v1_path is not None:
        for root, point, fstype, opts in mounts:
            if fstype == "cgroup" and "memory" in opts:
                where = _under(root, point, v1_path)
                if where is not None:
                    return MemoryController(1, where), ""
        return None, f"the v1 memory cgroup {v1_path} is not mounted here"
    if v2_path is not None:
        for root, point, fstype, _ in mounts:
            if fstype != "cgroup2":
                continue
            where = _under(root, point, v2_path)
            if where is None:
                continue
            try:
                available = (where / "cgroup.controllers").read_text().split()
            except OSError:
                continue
            if "memory" in available:
                return MemoryController(2, where), ""
        return None, "no cgroup v2 mount of this process's cgroup lists the memory controller"
    return None, "this process is in no memory cgroup (/proc/self/cgroup)"


def _sweep(parent: Path) -> None:
    """Remove child cgroups a process that is gone left behind (a crash, SIGKILL)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            m = _NAME.match(entry.name)
            if m and entry.is_dir() and not Path(f"/proc/{m.group(1)}").exists():
                with contextlib.suppress(OSError):
                    os.rmdir(entry.path)


def _enable_v2(parent: Path) -> None:
    """Children of a v2 cgroup get the memory controller only if the parent's
    ``cgroup.subtree_control`` lists it (and then the parent may hold no processes itself)."""
    control = parent / "cgroup.subtree_control"
    if "memory" in control.read_text().split():
        return
    try:
        control.write_text("+memory")
    except OSError as exc:
        if exc.errno != errno.EBUSY:
            raise
        raise OSError(
            exc.errno,
            f"{control} lacks memory, and it cannot be added while {parent} holds processes "
            "(this one): run quicksilver in a leaf cgroup whose parent enables memory",
        ) from exc


def memory_controller() -> tuple[MemoryController | None, str]:
    """The usable memory controller of this process (found and tried once, by creating and
    removing a child cgroup), or None and why not; in that case a warning says so, once."""
    with _LOCK:
        return _discover()


def forget() -> None:
    """Find the controller again on next use, and warn again (a test that changed where
    /proc/self/cgroup is read from; a long-lived process whose cgroups changed)."""
    with _LOCK:
        _discover.cache_clear()
        _WARNED.clear()


@functools.cache
def _discover() -> tuple[MemoryController | None, str]:
    try:
        found, reason = locate(PROC_SELF_CGROUP.read_text(), PROC_SELF_MOUNTINFO.read_text())
    except OSError as exc:
        found, reason = None, f"cannot read {PROC_SELF_CGROUP}: {exc}"
    if found is not None:
        parent = found.parent
        _sweep(parent)
        probe = parent / f"qs-{os.getpid()}-probe"
        try:
            if found.version == 2:
                _enable_v2(parent)
            with contextlib.suppress(FileExistsError):
                os.mkdir(probe)
            trial = ChildCgroup(probe, found.version)
            writable = os.access(probe / "cgroup.procs", os.W_OK)
            trial.remove()
            if not writable:
                raise PermissionError(f"{probe}/cgroup.procs is not writable")
        except (OSError, ValueError) as exc:
            with contextlib.suppress(OSError):
                os.rmdir(probe)
            found, reason = None, f"cannot use a memory cgroup under {parent}: {exc}"
    if found is None:
        _warn(reason)
    return found, reason


def _warn(reason: str) -> None:
    if _WARNED.is_set():
        return
    _WARNED.set()
    log.warning(
        "memory is measured from the resident size alone (VmRSS/VmHWM): %s. Memory a solution "
        "holds through the kernel (pipe buffers, page tables) is not counted; the sandbox's "
        "seccomp refusals and sealed /tmp leave pipes at 64 KiB each under the open-files limit "
        "(docs/profiler.md, 'Memory')",
        reason,
    )


def memory_source() -> str:
    """What memory readings of sandboxed children rest on here: ``rss+cgroup-v1``,
    ``rss+cgroup-v2``, or ``rss`` (see the module docstring)."""
    found, _ = memory_controller()
    return found.source if found is not None else MEMORY_SOURCE_RSS


def attach(pid: int) -> ChildCgroup | None:
    """A fresh memory cgroup with process ``pid`` (all its threads) moved into it, or None when
    no memory cgroup is usable here (warned once) or ``pid`` is already gone."""
    found, _ = memory_controller()
    if found is None:
        return None
    # random, not numbered: the child sees the name (/proc/self/cgroup, relative to the
    # sandbox's cgroup namespace), and a number would tell it which child of the zygote it is
    path = found.parent / f"qs-{os.getpid()}-{secrets.token_hex(6)}"
    cgroup = None
    try:
        os.mkdir(path)
        cgroup = ChildCgroup(path, found.version)
        cgroup.add(pid)
    except (OSError, ValueError) as exc:
        if cgroup is not None:
            cgroup.remove()
        else:
            with contextlib.suppress(OSError):
                os.rmdir(path)
        if not (isinstance(exc, OSError) and exc.errno == errno.ESRCH):
            _warn(f"cannot move pid {pid} into a memory cgroup under {found.parent}: {exc}")
        return None
    return cgroup


def _pread_int(fd: int) -> int:
    return int(os.pread(fd, 64, 0))


class ChildCgroup:
    """One child's memory cgroup: its kernel memory and shmem, in bytes.

    The files are opened once and read with ``pread`` (a few microseconds each: see
    docs/profiler.md, "Time-memory integral"). Raises OSError when the files cannot be opened
    or read, ValueError when ``memory.stat`` lacks a line it needs (v2 before Linux 5.18 has no
    ``kernel`` line).
    """

    def __init__(self, path: Path, version: Literal[1, 2]) -> None:
        self.path = path
        self.version = version
        self._fds: list[int] = []
        self._kmem = self._kmem_peak = -1
        try:
            self._stat = self._open("memory.stat", os.O_RDONLY)
            if version == 1:
                self._kmem = self._open("memory.kmem.usage_in_bytes", os.O_RDONLY)
                self._kmem_peak = self._open("memory.kmem.max_usage_in_bytes", os.O_RDWR)
                self.reset_peak()
            else:
                self._stat_fields(b"kernel", b"sock", b"shmem")
        except (OSError, ValueError):
            self.close()
            raise

    @property
    def source(self) -> str:
        return f"rss+cgroup-v{self.version}"

    def _open(self, name: str, flags: int) -> int:
        fd = os.open(self.path / name, flags | os.O_CLOEXEC)
        self._fds.append(fd)
        return fd

    def _stat_fields(self, *names: bytes) -> dict[bytes, int]:
        data = b"\n" + os.pread(self._stat, _STAT_BYTES, 0)
        found: dict[bytes, int] = {}
        for name in names:
            at = data.find(b"\n" + name + b" ")
            if at < 0:
                raise ValueError(f"{self.path}/memory.stat has no {name.decode()} line")
            start = at + len(name) + 2
            end = data.find(b"\n", start)
            found[name] = int(data[start : end if end >= 0 else len(data)])
        return found

    def add(self, pid: int) -> None:
        """Move process ``pid`` and all its threads into this cgroup."""
        with open(self.path / "cgroup.procs", "w") as fh:
            fh.write(str(pid))

    def kernel(self) -> int:
        """Kernel memory charged to the cgroup now (v1 kmem; v2 ``kernel`` + ``sock``)."""
        if self.version == 1:
            return _pread_int(self._kmem)
        found = self._stat_fields(b"kernel", b"sock")
        return found[b"kernel"] + found[b"sock"]

    def kernel_peak(self) -> int:
        """The most kernel memory charged since :meth:`reset_peak` (v2: now)."""
        if self.version == 1:
            return _pread_int(self._kmem_peak)
        return self.kernel()

    def reset_peak(self) -> None:
        """Reset the kernel-memory high-water mark to the current charge (v1; v2 has none)."""
        if self.version == 1:
            os.pwrite(self._kmem_peak, b"0", 0)

    def shmem(self) -> int:
        """Shmem pages (memfd, tmpfs, SysV shm, shared anonymous maps) charged, mapped or not."""
        return self._stat_fields(b"shmem")[b"shmem"]

    def close(self) -> None:
        """Close the files (the cgroup stays)."""
        fds, self._fds = self._fds, []
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    def remove(self, timeout: float = 1.0) -> None:
        """Close the files and remove the cgroup, waiting up to ``timeout`` for its last
        process to be gone (the kernel refuses while one is). Logged, not raised, on failure:
        :func:`memory_controller` of a later process removes what is left."""
        self.close()
        deadline = time.monotonic() + timeout
        while True:
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    log.info("memory cgroup %s left behind: %s", self.path, exc)
                    return
            time.sleep(0.002)
