"""quicksilver.preflight: the checks a build makes before its first stage (one line each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quicksilver.preflight import BUILD_CHECKS, NotReady, check_build_ready
from quicksilver.sandbox import isolation
from quicksilver.stages.config import BuildConfig, DPEBuildConfig, load_build_config
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "data" / "snapshot" / "bundled"


def _cfg(tmp_path: Path, *overrides: str, cls: type[BuildConfig] = BuildConfig) -> BuildConfig:
    return load_build_config(
        None, [f"snapshots=[{BUNDLED}]", f"out_dir={tmp_path / 'out'}", *overrides], cls=cls
    )


@pytest.fixture
def unusable_bwrap(monkeypatch):
    """bwrap installed but failing its trial run, with a two-line complaint."""
    calls: list[int] = []

    def probe() -> tuple[bool, str]:
        calls.append(1)
        return False, "bwrap is installed but a trial run failed: bwrap: No permissions\nto unshare"

    monkeypatch.setattr(isolation, "probe_bwrap", probe)
    return calls


def test_unusable_sandbox_is_one_line_naming_the_problem(tmp_path, unusable_bwrap):
    with pytest.raises(NotReady) as info:
        check_build_ready(_cfg(tmp_path))
    assert str(info.value) == (
        "cannot run untrusted code here: bwrap is installed but a trial run failed: bwrap: "
        "No permissions to unshare"
    )
    assert unusable_bwrap, "the real trial (probe_bwrap) decided"
    assert not (tmp_path / "out").exists()


def test_weak_sandbox_accepted_when_the_config_allows_it(tmp_path, unusable_bwrap):
    check_build_ready(_cfg(tmp_path, "profile.sandbox.allow_weak=true"))


def test_dpe_build_checks_its_profiling_sandbox_too(tmp_path, unusable_bwrap):
    # the correctness stages may run weak; the DPE profiling sandbox may not
    cfg = _cfg(tmp_path, "profile.sandbox.allow_weak=true", cls=DPEBuildConfig)
    with pytest.raises(NotReady, match=r"^cannot run untrusted code here: bwrap is installed"):
        check_build_ready(cfg)


@requires_bwrap  # the preflight tries the sandbox first
def test_missing_snapshot_folder_is_named(tmp_path):
    missing = tmp_path / "no-snapshot"
    cfg = load_build_config(None, [f"snapshots=[{BUNDLED}, {missing}]", f"out_dir={tmp_path}/o"])
    with pytest.raises(NotReady) as info:
        check_build_ready(cfg)
    assert str(info.value) == f"snapshot folder {missing} does not exist (snapshots in the config)"


@requires_bwrap  # the preflight tries the sandbox first
def test_output_folder_that_is_a_file_is_named(tmp_path):
    (tmp_path / "out").write_text("not a folder")
    with pytest.raises(NotReady) as info:
        check_build_ready(_cfg(tmp_path))
    assert str(info.value) == (
        f"output folder {tmp_path / 'out'}: cannot write: {tmp_path / 'out'} is not a folder"
    )


@requires_bwrap
def test_checks_run_in_order_and_a_new_one_plugs_in(tmp_path):
    """The place for a later check (a meter's readiness): a function in a list."""
    seen: list[str] = []

    def meter_ready(cfg: BuildConfig) -> str | None:
        seen.append(cfg.profile.measure.meter)
        return f"meter {cfg.profile.measure.meter} is not\nready"

    cfg = _cfg(tmp_path)
    check_build_ready(cfg, [lambda c: None])  # all well: nothing raised
    with pytest.raises(NotReady, match=r"^meter icount is not ready$"):
        check_build_ready(cfg, [*BUILD_CHECKS, meter_ready])
    assert seen == ["icount"]
    assert not (tmp_path / "out").exists()
