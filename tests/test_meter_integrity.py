"""The count out of the sample's reach, kernel work charged, and one bad sample never stops a run.

The instruction counter lives in the emulator's memory, which native code in the guest could
reach (qemu-user does not bound guest addresses). So no native code a solution brings may run:
the sandbox's seccomp filter refuses memfds, the children cannot write a file, and the icount
plugin ends a process that maps executable memory from anywhere but a read-only mount. Behind
those layers the host watches the readings: a count that goes backwards is a verdict for that
solution (``meter-tampering``), and every other solution of the run gets its own result.

The tampering tests turn the first layers off on purpose (``guards_off``: the plugin's
``exec_maps=allow`` and a filter that lets memfds through, both set by the host, out of the
guest's reach) to show what the last layer does with a solution that does reach the counter:
native code, loaded from a memfd with importlib's ExtensionFileLoader (a dlopen, not an exec),
that finds the counter through ``/proc/self/task/<tid>/maps`` and writes it back.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from quicksilver import meters
from quicksilver.config import MeasureConfig
from quicksilver.profiler import METER_TAMPERING, Case, Job, ProfileTask, RunResult, profile_many
from quicksilver.sandbox import seccomp
from tests.conftest import quick_sandbox, requires_bwrap, requires_qemu
from tests.test_measurement_abuse import BUBBLE, HONEST, TASK

pytestmark = requires_bwrap

METERS = [pytest.param("icount", marks=requires_qemu), "cpu"]

# A constructor that runs at dlopen: the first load remembers the count in the environment, a
# second one writes back that count plus a little (``subtle``), or any load divides it by ten
# (``crude``). The guest reaches the host's counter at its host address less the guest base.
REWIND_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
static volatile uint64_t *counter(void) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/self/task/%ld/maps", (long)syscall(SYS_gettid));
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    volatile uint64_t *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi; char perms[8];
        if (!strstr(line, "qscount") || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3
            || perms[1] != 'w') continue;
        for (unsigned long a = lo; a + 24 <= hi; a += 8) {
            char *p = (char *)(a - GUEST_BASE);
            if (memcmp(p, MAGIC, 16) == 0) { found = (volatile uint64_t *)(p + 16); break; }
        }
    }
    fclose(f);
    return found;
}
__attribute__((constructor)) static void rewind_counter(void) {
    volatile uint64_t *c = counter();
    if (!c) return;
#ifdef CRUDE
    *c = *c / 10;
#else
    char *seen = getenv("QS_SEEN");
    if (!seen) {
        char buf[32];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)*c);
        setenv("QS_SEEN", buf, 1);
    } else {
        *c = strtoull(seen, NULL, 10) + 1000;
    }
#endif
}
"""


def _native(tmp: Path, *, crude: bool) -> str:
    """The rewinding library, built here, as base64 (a solution carries it in its source)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    assert cc is not None, "gcc is needed to build the attack (a requires_qemu requirement)"
    src = tmp / "rewind.c"
    src.write_text(REWIND_C)
    out = tmp / ("crude.so" if crude else "subtle.so")
    defines = [
        f"-DGUEST_BASE={int(meters.GUEST_BASE, 16)}ULL",
        f'-DMAGIC="{meters.QSCOUNT_MAGIC.decode()}"',
        *(["-DCRUDE"] if crude else []),
    ]
    subprocess.run([cc, "-O2", "-shared", "-fPIC", *defines, "-o", str(out), str(src)], check=True)
    return base64.b64encode(out.read_bytes()).decode()


LOADER = """
import base64, importlib.machinery, importlib.util, os
def load_native(blob):
    fd = os.memfd_create("lib")
    os.write(fd, base64.b64decode(blob))
    loader = importlib.machinery.ExtensionFileLoader("lib", f"/proc/self/fd/{fd}")
    try:
        importlib.util.module_from_spec(importlib.util.spec_from_loader("lib", loader))
    except ImportError:
        pass  # no PyInit_lib: the constructor has run, which is all it needs
    # kept open: a second load gets another path (dlopen would reuse a loaded path's library)
    OPEN.append(fd)
OPEN = []
"""


def _attack(blob: str, *, subtle: bool) -> str:
    """Right answers; the count written back around the work (``subtle``: the sort runs three
    times between the two loads, so the host's sampler reads the count in between)."""
    body = (
        "        load_native(BLOB)\n"
        "        for _ in range(3):\n"
        "            out = bubble(nums)\n"
        "        load_native(BLOB)\n"
        if subtle
        else "        out = bubble(nums)\n        load_native(BLOB)\n"
    )
    return (
        BUBBLE
        + LOADER
        + f"BLOB = {blob!r}\n"
        + "class Solution:\n    def sortArray(self, nums):\n"
        + body
        + "        return out\n"
    )


def _profile(meter: str, codes: list[str]) -> list[RunResult]:
    measure = (
        MeasureConfig(meter="icount")
        if meter == "icount"
        else MeasureConfig(meter="cpu", min_rounds=3, max_rounds=4, budget_seconds=5.0)
    )
    return profile_many(
        [Job(TASK, code) for code in codes],
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=measure,
    )


@pytest.fixture
def guards_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plugin maps anything and the filter lets memfds through (host-side settings)."""
    monkeypatch.setattr(meters.IcountMeter, "plugin_args", ("exec_maps=allow",))
    monkeypatch.setattr(seccomp, "DENIED", tuple(n for n in seccomp.DENIED if n != "memfd_create"))
    seccomp.program.cache_clear()
    yield
    monkeypatch.undo()
    seccomp.program.cache_clear()


# ------------------------------------------------------------------------- the layers, on


@pytest.mark.parametrize("meter", METERS)
def test_native_code_a_solution_brings_never_runs(meter: str, tmp_path: Path) -> None:
    """The memfd the library would be loaded from cannot be made: an error verdict, on both
    meters, and the honest solution beside it is measured as usual."""
    attack = _attack(_native(tmp_path, crude=True), subtle=False)
    honest, res = _profile(meter, [HONEST, attack])
    assert honest.passed and honest.runtime, honest.error
    assert res.status == "error" and res.runtime is None
    assert "PermissionError" in (res.error or ""), res.error


@requires_qemu
def test_executable_memory_of_its_own_ends_the_process_under_icount() -> None:
    """Anonymous executable memory (where code a solution wrote would go) is refused by the
    plugin: the process ends with a verdict that says so."""
    jit = (
        BUBBLE
        + "import mmap\n"
        + "PAGE = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        + "class Solution:\n    def sortArray(self, nums):\n        return bubble(nums)\n"
    )
    (res,) = _profile("icount", [jit])
    assert res.status == "error", (res.status, res.error)
    assert "map executable memory" in (res.error or ""), res.error


@requires_qemu
def test_the_interpreters_own_extension_modules_still_load() -> None:
    """The guard lets through what lives on the read-only mounts: the standard library's
    extension modules, loaded lazily by a solution, are code we trust."""
    code = (
        BUBBLE
        + "import _bisect, _heapq, _json, _decimal, array, math, unicodedata\n"
        + "class Solution:\n    def sortArray(self, nums):\n        return bubble(nums)\n"
    )
    (res,) = _profile("icount", [code])
    assert res.passed, res.error


# ------------------------------------------------------------------------ the last layer


@requires_qemu
@pytest.mark.usefixtures("guards_off")
def test_a_rewound_count_is_a_verdict_and_the_others_are_measured(tmp_path: Path) -> None:
    """Between two honest solutions in one zygote: a count divided by ten (caught across the
    command) and a count written back to where it was plus a little (caught by a reading the
    host's sampler took in between) are ``meter-tampering`` verdicts, never an exception."""
    crude = _attack(_native(tmp_path, crude=True), subtle=False)
    subtle = _attack(_native(tmp_path, crude=False), subtle=True)
    first, a, b, last = _profile("icount", [HONEST, crude, subtle, HONEST])
    for res in (a, b):
        assert res.status == "error" and res.runtime is None, (res.status, res.error)
        assert (res.error or "").startswith(METER_TAMPERING), res.error
    assert "across the command" in (a.error or ""), a.error
    assert "within the command" in (b.error or ""), b.error
    assert first.passed and last.passed, (first.error, last.error)
    assert first.runtime and last.runtime
    assert abs(first.runtime - last.runtime) <= 0.001 * first.runtime


@requires_qemu
@pytest.mark.usefixtures("guards_off")
def test_a_scoring_run_with_a_tampering_sample_scores_the_honest_ones(tmp_path: Path) -> None:
    """``quicksilver score``'s engine: a tampering sample between honest ones gets its verdict
    with the reason, and the honest samples of the same run are scored."""
    from quicksilver.scoring import ReferenceCache, score
    from tests.test_scoring import DOUBLE_LOOP, HASH_MAP, ORDERED_PAIRS, record, samples

    blob = _native(tmp_path, crude=True)
    cheat = (
        HASH_MAP.replace(
            "        return count\n", "        load_native(BLOB)\n        return count\n"
        )
        + LOADER
        + f"BLOB = {blob!r}\n"
    )
    report = score(
        [record("zero-pairs", "9101", [DOUBLE_LOOP, ORDERED_PAIRS])],
        samples(**{"zero-pairs": [HASH_MAP, cheat, ORDERED_PAIRS]}),
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=MeasureConfig(meter="icount"),
        cache=ReferenceCache(tmp_path / "cache"),
        workers=1,
    )
    (task,) = report.to_dict()["tasks"]
    by_index = {s["index"]: s for s in task["samples"]}
    assert by_index[0]["status"] == "passed" and by_index[2]["status"] == "passed"
    # the fastest and the slowest of the honest samples, placed where they belong
    assert by_index[0]["beyond"] == 1.0 and by_index[2]["beyond"] < 0.1, by_index
    assert by_index[1]["status"] == "error"
    assert METER_TAMPERING in (by_index[1].get("error") or ""), by_index[1]


@requires_qemu
@pytest.mark.usefixtures("guards_off")
def test_quicksilver_run_gives_a_tampering_sample_a_verdict(tmp_path: Path) -> None:
    """``quicksilver run`` used to die with ``ValueError: the clock runs backwards``."""
    import json

    from typer.testing import CliRunner

    from quicksilver.cli import app

    task = tmp_path / "task.json"
    task.write_text(
        json.dumps(
            {
                "id": "9102",
                "slug_name": "sort-array",
                "difficulty": "Easy",
                "solutions": [],
                "prompt": "class Solution:\n    def sortArray(self, nums: List[int]) -> List[int]:\n",
                "entry_point": "sortArray",
                "test_cases": json.dumps(
                    [{"input": c.inputs, "expected": c.expected} for c in TASK.cases]
                ),
            }
        )
    )
    sample = tmp_path / "sample.py"
    sample.write_text(_attack(_native(tmp_path, crude=True), subtle=False))
    out = CliRunner().invoke(app, ["run", "--task", str(task), "--solution", str(sample), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["status"] == "error" and data["error"].startswith(METER_TAMPERING), data


# ----------------------------------------------------------------------- kernel work


ZERO_COPY = {
    "sendfile": "os.sendfile(w, r, None, 1 << 20)",
    "copy_file_range": "os.copy_file_range(r, w, 1 << 20)",
    "splice": "os.splice(r, w, 1 << 20)",
    "memfd_create": "os.memfd_create('held')",
    "socketpair": "__import__('socket').socketpair()",
    "F_SETPIPE_SZ": "__import__('fcntl').fcntl(w, 1031, 1 << 20)",
}


@pytest.mark.parametrize("meter", METERS)
def test_zero_copy_and_unmapped_memory_calls_are_refused(meter: str) -> None:
    """What moves data in the kernel (free under icount) or holds memory no map shows is
    refused from Python's own bindings, on both meters: each raises PermissionError."""
    tries = "\n".join(
        f"    try:\n        {call}\n        SEEN[{name!r}] = 'ok'\n"
        f"    except OSError as exc:\n        SEEN[{name!r}] = type(exc).__name__"
        for name, call in ZERO_COPY.items()
    )
    code = (
        BUBBLE
        + "import os\nSEEN = {}\ndef probe():\n    r, w = os.pipe()\n"
        + tries
        + "\n    return SEEN\n"
        + "class Solution:\n    def sortArray(self, nums):\n"
        + "        seen = probe()\n"
        + "        if any(v != 'PermissionError' for v in seen.values()):\n"
        + "            raise RuntimeError(repr(seen))\n"
        + "        return bubble(nums)\n"
    )
    (res,) = _profile(meter, [code])
    assert res.passed, res.error


@requires_qemu
def test_bytes_the_kernel_moves_are_charged_under_icount() -> None:
    """Reading 16 MiB from /dev/zero is kernel work the guest counter does not see: it is
    charged a byte an instruction (meters.KERNEL_BYTE_COST), more than copying the same bytes
    in Python costs, where it used to count almost nothing."""
    size = 16 << 20
    reads = (
        "import os\n"
        "def work():\n"
        "    fd = os.open('/dev/zero', os.O_RDONLY)\n"
        "    buf = bytearray(1 << 20)\n"
        f"    for _ in range({size >> 20}):\n"
        "        os.readv(fd, [buf])\n"
        "    os.close(fd)\n"
    )
    copies = (
        "def work():\n"
        "    src = bytes(1 << 20)\n"
        f"    for _ in range({size >> 20}):\n"
        "        bytearray(src)\n"
    )
    one_case = ProfileTask("k", "f", (Case([1], 1),), kind="function")
    results = profile_many(
        [Job(one_case, body + "def f(x):\n    work()\n    return x\n") for body in (reads, copies)],
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=MeasureConfig(meter="icount"),
    )
    kernel, python = results
    assert kernel.passed and python.passed, (kernel.error, python.error)
    assert kernel.runtime is not None and python.runtime is not None
    assert kernel.runtime >= meters.KERNEL_BYTE_COST * size
    assert kernel.runtime >= python.runtime, (kernel.runtime, python.runtime)
