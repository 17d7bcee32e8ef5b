"""Shared fixtures: small tasks and quick measurement settings for sandbox tests.

Also what a test needs from the machine, and the test groups:

- ``requires("bwrap")`` (``requires_bwrap``), ``requires_qemu``, ``requires_chromium`` and
  ``requires_memory_cgroup`` mark a test that needs a system requirement from
  ``REQUIREMENTS``. When it is missing the test is skipped, except under CI (``CI=true``),
  where it FAILS and names what is missing: CI never hides a missing sandbox or meter behind
  skips.
- every test is in exactly one group, a marker: ``flows`` (it runs Prefect flows: it uses the
  ``prefect_harness`` fixture or is marked ``flows``), else ``sandbox`` (it has a ``requires``
  marker), else ``units``. ``pytest -m units`` runs the unit tests alone, and the run ends with
  passed / failed / skipped per group.
- a ``units`` test that starts a bubblewrap sandbox (in this process or a subprocess) fails: it
  must carry ``requires_bwrap`` so that the sandbox group counts it.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ("sandbox", "flows", "units")


def _system_deps() -> ModuleType:
    """scripts/system_deps.py: the one list of system packages and how to install them."""
    path = ROOT / "scripts" / "system_deps.py"
    spec = importlib.util.spec_from_file_location("quicksilver_system_deps", path)
    assert spec is not None and spec.loader is not None, path
    if spec.name in sys.modules:  # conftest is imported twice (as conftest and tests.conftest)
        return sys.modules[spec.name]
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


SYSTEM_DEPS = _system_deps()


def load_bench(name: str) -> ModuleType:
    """bench/``name``.py as a module named ``name`` (bench/ is not a package; its scripts import
    ``common`` from their own folder, and their dataclasses look their module up by name)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "bench"))


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@dataclass(frozen=True)
class Requirement:
    """Something a test needs from the machine: ``check`` returns None when it is there, else
    what is missing; ``hint`` says how to get it."""

    name: str
    check: Callable[[], str | None]
    hint: str


def _missing_commands(*commands: str) -> str | None:
    gone = [c for c in commands if shutil.which(c) is None]
    if not gone:
        return None
    packages = [SYSTEM_DEPS.package_for(c).name for c in gone]
    return f"{', '.join(gone)} not found on PATH (package {', '.join(packages)})"


def _bwrap_missing() -> str | None:
    from quicksilver.sandbox.isolation import probe_bwrap

    ok, detail = probe_bwrap()  # a real sandboxed trial: installed AND able to create namespaces
    return None if ok else detail


def _hint(*commands: str) -> str:
    names = " ".join(SYSTEM_DEPS.package_for(c).name for c in commands)
    return (
        f"install {names} (`make system` or `python3 scripts/system_deps.py` installs every "
        f"system package: {SYSTEM_DEPS.install_command([p.name for p in SYSTEM_DEPS.packages()])})"
    )


def _memory_cgroup_missing() -> str | None:
    from quicksilver.sandbox import cgroup

    found, reason = cgroup.memory_controller()  # a real trial: a child cgroup made and removed
    return None if found is not None else reason


_QEMU = SYSTEM_DEPS.qemu_command()
REQUIREMENTS: dict[str, Requirement] = {
    "bwrap": Requirement("bwrap", _bwrap_missing, _hint("bwrap")),
    "qemu": Requirement("qemu", lambda: _missing_commands(_QEMU, "gcc"), _hint(_QEMU, "gcc")),
    # a headless browser that opens the build reports (tests/test_report.py)
    "chromium": Requirement("chromium", lambda: _missing_commands("chromium"), _hint("chromium")),
    # a memory cgroup per sandboxed child, for what the kernel holds for it (sandbox/cgroup.py)
    "memory-cgroup": Requirement(
        "memory-cgroup",
        _memory_cgroup_missing,
        "run as root (or in a delegated, writable memory cgroup) on a kernel with the memory "
        "controller: cgroup v1 at /sys/fs/cgroup/memory, or v2 with memory in "
        "cgroup.controllers (docs/sandbox.md)",
    ),
}


def requires(name: str) -> pytest.MarkDecorator:
    """Mark a test as needing ``REQUIREMENTS[name]``: skipped without it, failed under CI."""
    if name not in REQUIREMENTS:
        raise KeyError(f"unknown test requirement {name!r}; known: {', '.join(REQUIREMENTS)}")
    return pytest.mark.requires(name)


requires_bwrap = requires("bwrap")
requires_qemu = requires("qemu")
requires_chromium = requires("chromium")
requires_memory_cgroup = requires("memory-cgroup")


@functools.cache
def _missing(name: str) -> str | None:
    return REQUIREMENTS[name].check()


QUICK = MeasureConfig()  # the default, deterministic icount meter: one pass
QUICK_CPU = MeasureConfig(meter="cpu", min_rounds=2, max_rounds=3, budget_seconds=1.0)


def quick_sandbox(**limits: object) -> SandboxConfig:
    base = {"cpu_seconds": 5.0, "wall_seconds": 10.0}
    base.update(limits)
    return SandboxConfig(limits=SandboxLimits(**base))  # type: ignore[arg-type]


@pytest.fixture
def echo_task() -> ProfileTask:
    """f(x) -> x + 1, as a class Solution method."""
    return ProfileTask("echo", "f", (Case([1], 2), Case([41], 42)))


@pytest.fixture
def sum_task() -> ProfileTask:
    """f(n) -> sum(range(n)) with a size that takes a few milliseconds."""
    return ProfileTask("sum", "f", (Case([200_000], sum(range(200_000))),))


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[Path]:
    """One Prefect test server for the whole session (it takes ~10-30 s to start); yields the
    path of its SQLite database."""
    from prefect.settings import PREFECT_SERVER_DATABASE_CONNECTION_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        url = PREFECT_SERVER_DATABASE_CONNECTION_URL.value()
        yield Path(url.split(":///", 1)[1])


HUB_TOKEN = "hf_test_token_5b1e"


@pytest.fixture
def hub(monkeypatch, tmp_path) -> Iterator[Any]:
    """A fresh fake Hub; datasets / huggingface_hub pointed at it; no token in the environment."""
    import datasets
    import huggingface_hub
    from hub_server import HubServer
    from huggingface_hub import HfFileSystem

    server = HubServer(token=HUB_TOKEN).start()
    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", server.url)
    monkeypatch.setattr(
        datasets.config,
        "HUB_DATASETS_URL",
        server.url + "/datasets/{repo_id}/resolve/{revision}/{path}",
    )
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", server.url)
    monkeypatch.setattr(
        huggingface_hub.constants,
        "HUGGINGFACE_CO_URL_TEMPLATE",
        server.url + "/{repo_id}/resolve/{revision}/{filename}",
    )
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    try:
        yield server
    finally:
        server.stop()
        HfFileSystem.clear_instance_cache()
    assert server.unknown == [], f"requests the fake hub does not know: {server.unknown}"
    assert server.errors == [], f"the fake hub failed: {server.errors}"


# --- the hooks: requirements, groups, the sandbox guard, the per-group summary -----------------

_GROUP_OF: dict[str, str] = {}  # nodeid -> group, for the summary


def group_of(item: pytest.Item) -> str:
    """flows, else sandbox, else units (see the module docstring)."""
    if item.get_closest_marker("flows") or "prefect_harness" in getattr(item, "fixturenames", ()):
        return "flows"
    if item.get_closest_marker("requires") or item.get_closest_marker("sandbox"):
        return "sandbox"
    return "units"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: the group markers must be there before `-m` deselects anything.
    for item in items:
        group = group_of(item)
        _GROUP_OF[item.nodeid] = group
        if item.get_closest_marker(group) is None:
            item.add_marker(group)


class SandboxStarts:
    """Which test starts bubblewrap sandboxes, in this process or any subprocess: ``bwrap`` on
    PATH becomes a script that appends the running test's id to a file, then runs the real one."""

    def __init__(self, real: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="qs-bwrap-guard-"))
        self.current = self.folder / "current"
        self.starts = self.folder / "starts"
        self.current.touch()
        self.starts.touch()
        script = self.folder / "bwrap"
        script.write_text(
            "#!/bin/sh\n"
            "# tests/conftest.py: note the test that starts this sandbox, then run bubblewrap.\n"
            'case " $* " in *" --unshare-pid "*)\n'
            f'    {{ read -r t < "{self.current}" && echo "$t" >> "{self.starts}"; }} 2>/dev/null'
            ";;\nesac\n"
            f'exec "{real}" "$@"\n'
        )
        script.chmod(0o755)

    def begin(self, nodeid: str) -> None:
        self.current.write_text(nodeid + "\n")

    def take(self, nodeid: str) -> int:
        """How many sandboxes ``nodeid`` started; forgets them all."""
        lines = self.starts.read_text().splitlines()
        self.starts.write_text("")
        self.current.write_text("")
        return sum(1 for line in lines if line == nodeid)


_STARTS: SandboxStarts | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _STARTS
    real = shutil.which("bwrap")
    if real is None or _STARTS is not None:
        return
    from quicksilver.sandbox import isolation

    _STARTS = SandboxStarts(real)
    os.environ["PATH"] = f"{_STARTS.folder}{os.pathsep}{os.environ.get('PATH', '')}"
    isolation.bwrap_path.cache_clear()
    isolation.probe_bwrap.cache_clear()
    config.add_cleanup(functools.partial(shutil.rmtree, _STARTS.folder, True))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if _STARTS is not None:
        _STARTS.begin(item.nodeid)
    for mark in item.iter_markers("requires"):
        (name,) = mark.args
        missing = _missing(name)
        if missing is None:
            continue
        hint = REQUIREMENTS[name].hint
        if in_ci():
            pytest.fail(
                f"CI=true, so this test fails instead of skipping: it needs {name}, "
                f"and {missing}; {hint}",
                pytrace=False,
            )
        pytest.skip(f"needs {name}: {missing}; {hint}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    started = _STARTS.take(item.nodeid) if _STARTS is not None else 0
    if started and _GROUP_OF.get(item.nodeid, "units") == "units":
        pytest.fail(
            f"{item.nodeid} started {started} bubblewrap sandbox(es) but is in the units group: "
            "mark it requires_bwrap (tests/conftest.py) so that it counts in the sandbox group "
            "and fails under CI when bubblewrap is missing",
            pytrace=False,
        )
    return result


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """passed / failed / skipped per group, so that a storm of skips cannot go unseen."""
    worst: dict[str, str] = {}
    rank = {"passed": 0, "skipped": 1, "failed": 2}
    kinds = {"passed": "passed", "failed": "failed", "error": "failed", "skipped": "skipped"}
    for category, reports in terminalreporter.stats.items():
        kind = kinds.get(category)
        for report in reports if kind else ():
            if not isinstance(report, pytest.TestReport):
                continue  # a collection error: pytest's own summary shows it
            before = worst.get(report.nodeid)
            if before is None or rank[kind] > rank[before]:
                worst[report.nodeid] = kind
    if not worst:
        return
    counts = {g: dict.fromkeys(rank, 0) for g in GROUPS}
    for nodeid, kind in worst.items():
        counts[_GROUP_OF.get(nodeid, "units")][kind] += 1
    terminalreporter.write_sep("-", "tests per group")
    for group in GROUPS:
        c = counts[group]
        line = (
            f"{group:<8} {c['passed']:5d} passed {c['failed']:5d} failed {c['skipped']:5d} skipped"
        )
        terminalreporter.write_line(line)
