"""Shared fixtures: small tasks and quick measurement settings for sandbox tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask

requires_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed (.ci/run installs it)"
)
requires_valgrind = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="valgrind is not installed (.ci/run installs it)"
)
requires_qemu = pytest.mark.skipif(
    shutil.which("qemu-x86_64") is None and shutil.which("qemu-aarch64") is None,
    reason="qemu-user is not installed (.ci/run installs it)",
)

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
