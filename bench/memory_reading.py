"""What one memory reading costs the host: the resident size alone, and with a memory cgroup.

A process of this host (a Python interpreter holding 100 MB and 16 filled pipes, idle) is read
the ways the profiler reads a sandboxed child (``MemoryProbe``, docs/profiler.md "Memory"):

- ``reading()``: the sampler's reading during a command (``/proc/<pid>/status``, plus the
  cgroup's kernel memory with a cgroup);
- ``reading(full=True)`` / ``peak()``: a command's last reading (plus the kernel memory's mark
  and ``memory.stat``);
- ``reset()``: before each command (``clear_refs``, the marks reset, status, kernel memory and
  ``memory.stat``);
- ``open-read-close status``: how the probe read status before it kept the file open;
- ``attach + remove``: a child's cgroup made, the process moved in, the cgroup removed.

Each is timed over ``--repeats`` calls (host CPU time of this thread and wall time, per call).
Results are in docs/profiler.md ("Time-memory integral"). A few seconds.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from quicksilver.sandbox import cgroup
from quicksilver.sandbox.session import MemoryProbe

from common import header, parser, start, table, write_json

log = logging.getLogger("bench.memory_reading")

HOLDER = r"""
import os, sys
held = bytearray(100 * 2**20)
pipes = []
for _ in range(16):
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        while True:
            os.write(w, b"x" * 4096)
    except BlockingIOError:
        pass
    pipes.append((r, w))
print("ready", flush=True)
sys.stdin.read()
"""


def per_call(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Host CPU time and wall time per call of ``fn``, in microseconds."""
    fn()
    cpu, wall = time.thread_time(), time.perf_counter()
    for _ in range(repeats):
        fn()
    return (
        (time.thread_time() - cpu) / repeats * 1e6,
        (time.perf_counter() - wall) / repeats * 1e6,
    )


def old_status_read(pid: int) -> Callable[[], object]:
    def read() -> object:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmRSS:"):
                    return line
        return None

    return read


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, repeats="readings timed per row (default 5000)")
    args = p.parse_args(argv)
    repeats = args.repeats or 5000
    console = start()
    machine, revision = header(console)
    found, reason = cgroup.memory_controller()
    console.print(
        f"memory source here: {cgroup.memory_source()}" + (f" ({reason})" if reason else "")
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    probes: dict[str, MemoryProbe] = {}
    try:
        proc.stdout.readline()
        probes["rss"] = MemoryProbe(proc.pid)
        home = cgroup.attach(proc.pid) if found is not None else None
        if found is not None and home is not None:
            probes[found.source] = MemoryProbe(proc.pid, home)
        for source, probe in probes.items():
            rows[source] = {
                "reading()": per_call(probe.reading, repeats),
                "reading(full=True)": per_call(lambda pr=probe: pr.reading(full=True), repeats),
                "reset()": per_call(probe.reset, repeats // 10),
            }
        rows["rss"]["open-read-close status"] = per_call(old_status_read(proc.pid), repeats)
        if found is not None and home is not None:

            def attach_remove() -> None:
                cg = cgroup.attach(proc.pid)
                assert cg is not None
                home.add(proc.pid)  # back, so that the new one can go
                cg.remove()

            rows[found.source]["attach + remove"] = per_call(attach_remove, repeats // 50)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        for probe in probes.values():
            probe.close()
    t = table(
        f"host cost per call (us), {repeats} readings", ("call", "left"), "source", "CPU", "wall"
    )
    for source, calls in rows.items():
        for name, (cpu, wall) in calls.items():
            t.add_row(name, source, f"{cpu:.1f}", f"{wall:.1f}")
    console.print(t)
    numbers: dict[str, Any] = {
        "machine": machine,
        "revision": revision,
        "repeats": repeats,
        "us_per_call": {
            s: {n: {"cpu": c, "wall": w} for n, (c, w) in calls.items()}
            for s, calls in rows.items()
        },
    }
    write_json(args.json, numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
