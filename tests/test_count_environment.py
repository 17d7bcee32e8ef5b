"""What an instruction count depends on, and what it must not (issue 29, counts that travel).

A count is worth shipping with a dataset only if another machine running the same interpreter,
emulator and runtime gets the same number. These tests change what differs between machines
and between moments on one machine, and check that the count does not move: the host's
bytecode caches (written by the host's own imports whenever they happen), its environment
variables, its working directory, its host name and the CPUs it may use. (The kernel could not
be varied here; the fingerprint records it as informational.)
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask, profile_solution
from quicksilver.sandbox import isolation
from tests.conftest import requires_bwrap, requires_qemu

pytestmark = [requires_bwrap, requires_qemu]

# A solution that uses the prelude's SortedList, so the count covers the site package too.
CODE = (
    "class Solution:\n"
    "    def f(self, n):\n"
    "        s = SortedList()\n"
    "        for i in range(n):\n"
    "            s.add((i * 7919) % 1009)\n"
    "        return s[len(s) // 2]\n"
)
TASK = ProfileTask("median", "f", (Case([2_000], None), Case([10], None)))
SANDBOX = SandboxConfig(limits=SandboxLimits(cpu_seconds=10.0))


def _expected() -> ProfileTask:
    def median(n: int) -> int:
        values = sorted((i * 7919) % 1009 for i in range(n))
        return values[len(values) // 2]

    return ProfileTask("median", "f", tuple(Case(c.inputs, median(*c.inputs)) for c in TASK.cases))


def _count() -> int:
    res = profile_solution(
        _expected(), CODE, meter="icount", sandbox=SANDBOX, measure=MeasureConfig()
    )
    assert res.status == "passed", (res.status, res.error)
    assert res.runtime is not None and res.runtime > 100_000
    return int(res.runtime)


@pytest.fixture
def private_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Copies of the harness's runtime and of sortedcontainers, without bytecode caches, that
    the sandbox binds instead of the installed ones (so a test can write caches into them)."""
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for path in isolation.python_sources(isolation.RUNTIME_DIR):
        shutil.copy2(path, runtime / path.name)
    site_dir = isolation._site_package_dir("sortedcontainers")
    assert site_dir is not None, "sortedcontainers is a dependency"
    site = tmp_path / "site" / "sortedcontainers"
    site.mkdir(parents=True)
    for path in isolation.python_sources(site_dir):
        shutil.copy2(path, site / path.name)
    monkeypatch.setattr(isolation, "RUNTIME_DIR", runtime)
    monkeypatch.setattr(
        isolation, "_site_package_dir", lambda name: site if name == "sortedcontainers" else None
    )
    return runtime, site


def test_the_hosts_bytecode_caches_do_not_move_a_count(private_sources: tuple[Path, Path]) -> None:
    runtime, site = private_sources
    cold = _count()
    # what the host's own imports leave behind, at a moment nobody chooses: before the fix the
    # count moved by about 0.8% (two-sum: 2,395,171 -> 2,413,601 instructions)
    assert compileall.compile_dir(str(runtime), quiet=1) and compileall.compile_dir(
        str(site), quiet=1
    )
    assert list((runtime / "__pycache__").glob("wire.*.pyc")), "the cache was written"
    assert list((site / "__pycache__").glob("sortedlist.*.pyc")), "the cache was written"
    assert _count() == cold
    # nor does the sandbox see the cache folders at all
    argv = isolation.bwrap_argv(seccomp_fd=0)
    assert not [a for a in argv if "__pycache__" in a], argv


def test_the_hosts_environment_and_working_directory_do_not_move_a_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _count()
    monkeypatch.setenv("QS_TEST_PADDING", "x" * 20_000)
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 8)
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert _count() == base
    assert os.getcwd() == str(deep)


COUNT_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tests.test_count_environment import _count
print(json.dumps(_count()))
"""


def test_the_hostname_and_the_cpus_the_host_may_use_do_not_move_a_count() -> None:
    """Another host name (a UTS namespace of its own) and one CPU instead of all: the count of
    the same solution is the same."""
    root = str(Path(__file__).resolve().parent.parent)

    def count(prefix: list[str]) -> int:
        out = subprocess.run(
            [*prefix, sys.executable, "-c", COUNT_SCRIPT, root],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        return int(json.loads(out.stdout.strip().splitlines()[-1]))

    base = count([])
    hostname = "a-much-longer-host-name-than-this-machine-has.example"
    renamed = ["unshare", "--uts", "sh", "-c", f'hostname {hostname} && exec "$0" "$@"']
    assert count(renamed) == base
    assert count(["taskset", "-c", "0"]) == base
