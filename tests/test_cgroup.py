"""Memory cgroups per sandboxed child (quicksilver/sandbox/cgroup.py) and what MemoryProbe makes
of them: against a real cgroup of this machine (``requires_memory_cgroup``), plus the parsing
of /proc/self/cgroup and mountinfo and the fallback to the resident size alone."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from quicksilver.config import MeasureConfig
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sandbox import cgroup
from quicksilver.sandbox.session import MemoryProbe
from tests.conftest import quick_sandbox, requires_bwrap, requires_memory_cgroup

MB = 1 << 20
PIPE_BYTES = 65536  # a pipe's default buffer: 16 pages

# A process on this host (not sandboxed) that does what it is told on stdin, one line a step,
# and answers each with a line (the bytes it holds, when it fills something).
HOLDER = r"""
import mmap, os, sys
pipes, fd, mapped = [], -1, None
for line in sys.stdin:
    op = line.split()
    if op[0] == "pipes":
        held = 0
        for _ in range(int(op[1])):
            r, w = os.pipe()
            os.set_blocking(w, False)
            try:
                while True:
                    held += os.write(w, b"x" * 4096)
            except BlockingIOError:
                pass
            pipes.append((r, w))
        print(held, flush=True)
    elif op[0] == "close-pipes":
        for r, w in pipes:
            os.close(r)
            os.close(w)
        pipes.clear()
        print(0, flush=True)
    elif op[0] == "memfd":
        fd = os.memfd_create("held")
        size = int(op[1])
        chunk = b"y" * 65536  # small: the process's own heap stays as it was
        for _ in range(size // len(chunk)):
            os.write(fd, chunk)
        print(size, flush=True)
    elif op[0] == "map":
        mapped = mmap.mmap(fd, os.fstat(fd).st_size)
        total = 0
        for i in range(0, len(mapped), 4096):
            total += mapped[i]
        print(total, flush=True)
    elif op[0] == "drop":
        mapped.close()
        os.close(fd)
        print(0, flush=True)
"""


class Holder:
    """A HOLDER process and its memory cgroup."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.cgroup = cgroup.attach(self.proc.pid)
        assert self.cgroup is not None, "no memory cgroup for the process"

    def do(self, *op: object) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(" ".join(map(str, op)) + "\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def end(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def holder() -> Iterator[Holder]:
    h = Holder()
    try:
        yield h
    finally:
        h.end()
        assert h.cgroup is not None
        h.cgroup.remove()


@requires_memory_cgroup
def test_attach_moves_the_process_and_remove_takes_the_cgroup_away(holder: Holder) -> None:
    cg = holder.cgroup
    assert cg is not None and cg.path.is_dir()
    assert cg.path.name.startswith(f"qs-{os.getpid()}-")
    assert cg.source == cgroup.memory_source() == f"rss+cgroup-v{cg.version}"
    lines = Path(f"/proc/{holder.proc.pid}/cgroup").read_text().splitlines()
    mine = [ln for ln in lines if ("memory" in ln.split(":")[1].split(",")) or ln.startswith("0::")]
    assert any(ln.endswith("/" + cg.path.name) for ln in mine), lines
    holder.end()
    cg.remove()
    assert not cg.path.exists()


@requires_memory_cgroup
def test_filled_pipes_are_charged_as_kernel_memory(holder: Holder) -> None:
    cg = holder.cgroup
    assert cg is not None
    before = cg.kernel()
    held = holder.do("pipes", 16)
    assert held == 16 * PIPE_BYTES
    charged = cg.kernel() - before
    assert 0.95 * held <= charged <= held + MB, charged
    assert cg.kernel_peak() >= before + charged
    holder.do("close-pipes")
    assert cg.kernel() - before < 0.5 * held  # given back
    if cg.version == 1:  # v1 keeps a high-water mark of kernel memory, reset by the host
        assert cg.kernel_peak() - before >= 0.95 * held
        cg.reset_peak()
        assert cg.kernel_peak() - before < 0.5 * held


@requires_memory_cgroup
def test_the_probe_adds_what_the_kernel_holds_and_counts_mapped_pages_once(
    holder: Holder,
) -> None:
    probe = MemoryProbe(holder.proc.pid, holder.cgroup)
    assert probe.source == cgroup.memory_source() != cgroup.MEMORY_SOURCE_RSS
    start = probe.reset()
    assert start is not None
    # pipe buffers: not in VmRSS, in every reading (the sampler's too) and in the peak
    held = holder.do("pipes", 16)
    now = probe.reading()
    assert now is not None and now[0] - start >= 0.95 * held, (now, start)
    peak = probe.peak()
    assert peak is not None and peak - start >= 0.95 * held
    holder.do("close-pipes")
    peak = probe.peak()
    assert peak is not None and peak - start >= 0.95 * held  # the mark keeps it
    start = probe.reset()
    assert start is not None
    # a memfd written and never mapped: cgroup shmem, not resident
    size = holder.do("memfd", 8 * MB)
    written = probe.reset()
    assert written is not None and 0.95 * size <= written - start <= size + MB, written - start
    # mapped and touched: resident now (RssShmem), and counted once, not twice
    holder.do("map")
    mapped = probe.reset()
    assert mapped is not None and 0.95 * size <= mapped - start <= size + 2 * MB, mapped - start
    holder.do("drop")
    dropped = probe.reset()
    assert dropped is not None and dropped - start < MB, dropped - start
    holder.end()
    probe.close()  # the process is gone: its cgroup goes too
    assert holder.cgroup is not None and not holder.cgroup.path.exists()


# -- finding the controller --------------------------------------------------------------------

V1_MOUNTINFO = (
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 /outer /sys/fs/cgroup/mem\\040ory rw,relatime - cgroup cgroup rw,memory\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
)


def test_locate_v1_under_the_mount_root() -> None:
    found, reason = cgroup.locate(
        "5:devices:/\n4:memory:/outer/process_api/abc\n0::/\n", V1_MOUNTINFO
    )
    assert found == cgroup.MemoryController(1, Path("/sys/fs/cgroup/mem ory/process_api/abc"))
    assert reason == ""
    assert found.source == "rss+cgroup-v1"


def test_locate_says_why_when_there_is_no_memory_controller(tmp_path: Path) -> None:
    found, reason = cgroup.locate("4:memory:/elsewhere\n", V1_MOUNTINFO)
    assert found is None and "/elsewhere is not mounted" in reason
    found, reason = cgroup.locate("1:cpu:/\n", "")
    assert found is None and "no memory cgroup" in reason
    # v2 whose controllers do not include memory (this machine's /sys/fs/cgroup/unified)
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "cgroup.controllers").write_text("hugetlb\n")
    mountinfo = f"41 31 0:38 / {tmp_path} rw - cgroup2 cgroup2 rw\n"
    found, reason = cgroup.locate("0::/svc\n", mountinfo)
    assert found is None and "memory controller" in reason


def test_locate_v2_where_cgroup_controllers_lists_memory(tmp_path: Path) -> None:
    (tmp_path / "user.slice" / "me").mkdir(parents=True)
    (tmp_path / "user.slice" / "me" / "cgroup.controllers").write_text("cpu io memory pids\n")
    mountinfo = f"41 31 0:38 / {tmp_path} rw,nosuid - cgroup2 cgroup2 rw\n"
    found, _ = cgroup.locate("0::/user.slice/me\n", mountinfo)
    assert found == cgroup.MemoryController(2, tmp_path / "user.slice" / "me")


def test_v2_readings_come_from_memory_stat(tmp_path: Path) -> None:
    """The v2 read path on a directory laid out like a v2 cgroup (this machine has no v2
    memory controller): kernel memory is ``kernel`` + ``sock``; no mark of its own."""
    (tmp_path / "memory.stat").write_text(
        "anon 4096\nfile 0\nkernel 90112\nkernel_stack 16384\nsock 8192\nshmem 12288\n"
    )
    cg = cgroup.ChildCgroup(tmp_path, 2)
    assert (cg.kernel(), cg.kernel_peak(), cg.shmem()) == (98304, 98304, 12288)
    (tmp_path / "memory.stat").write_text("anon 4096\nsock 0\nshmem 0\n")
    with pytest.raises(ValueError, match="no kernel line"):
        cg.kernel()
    cg.close()


# -- the fallback: no usable memory cgroup -----------------------------------------------------


@pytest.fixture
def no_memory_cgroup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """This process as seen on a machine without a memory controller (cgroup v2, hugetlb only)."""
    (tmp_path / "cgroup").write_text("0::/\n")
    (tmp_path / "mountinfo").write_text(f"41 31 0:38 / {tmp_path} rw - cgroup2 cgroup2 rw\n")
    (tmp_path / "cgroup.controllers").write_text("hugetlb\n")
    monkeypatch.setattr(cgroup, "PROC_SELF_CGROUP", tmp_path / "cgroup")
    monkeypatch.setattr(cgroup, "PROC_SELF_MOUNTINFO", tmp_path / "mountinfo")
    cgroup.forget()
    try:
        yield
    finally:
        cgroup.forget()  # found again, the real one, on next use


@requires_bwrap
def test_without_a_memory_cgroup_memory_is_the_resident_size_and_says_so(
    no_memory_cgroup: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="quicksilver.sandbox.cgroup")
    task = ProfileTask("ident", "f", (Case([3], 3), Case([41], 41)), kind="function")
    code = "def f(x):\n    held = bytearray(20 * 2**20)\n    return x + held[-1]\n"
    results = profile_many(
        [Job(task, code), Job(task, code)],
        sandbox=quick_sandbox(),
        measure=MeasureConfig(meter="cpu", min_rounds=2, max_rounds=2, budget_seconds=1.0),
        workers=1,
    )
    for res in results:
        assert res.passed, res.error
        assert res.memory_source == cgroup.MEMORY_SOURCE_RSS == cgroup.memory_source()
        assert res.peak_memory_bytes is not None and res.peak_memory_bytes >= 0.8 * 20 * MB
    warnings = [r for r in caplog.records if r.name == "quicksilver.sandbox.cgroup"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "resident size alone" in message and "memory controller" in message, message
    assert cgroup.attach(os.getpid()) is None
