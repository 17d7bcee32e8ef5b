"""Shared fixtures: small tasks and quick measurement settings for sandbox tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask

requires_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed (.ci/run installs it)"
)
requires_valgrind = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="valgrind is not installed (.ci/run installs it)"
)

QUICK = MeasureConfig(min_rounds=2, max_rounds=3, budget_seconds=1.0, window_target_ms=0.5)


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
