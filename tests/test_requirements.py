"""tests/conftest.py's requirements, groups and sandbox guard, on a small test file run by an inner
pytest with tests/conftest.py as its plugin and a PATH of fakes (no real bubblewrap in sight)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = """
import subprocess

import pytest

from tests.conftest import requires_bwrap, requires_qemu


def test_plain():
    assert 1 + 1 == 2


@requires_bwrap
def test_needs_bwrap():
    pass


@requires_qemu
def test_needs_qemu():
    pass


@pytest.mark.flows
def test_a_flow():
    pass


def test_unmarked_but_starts_a_sandbox():
    subprocess.run(["bwrap", "--unshare-pid", "true"], check=True)
"""


def inner_pytest(tmp_path: Path, *args: str, ci: bool, have: tuple[str, ...] = ()) -> str:
    """Run SAMPLE with PATH = a folder holding fakes of ``have`` (each exits 0, prints nothing)."""
    fakes = tmp_path / "bin"
    fakes.mkdir(exist_ok=True)
    for name in have:
        (fakes / name).write_text("#!/bin/sh\nexit 0\n")
        (fakes / name).chmod(0o755)
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env.update({"PATH": str(fakes), "QS_ASSUME_MACHINE": "x86_64"})
    if ci:
        env["CI"] = "true"
    argv = [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider"]
    argv += ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), "-rA", "-v", *args]
    proc = subprocess.run(
        [*argv, str(tmp_path / "test_sample.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return proc.stdout + proc.stderr


def outcome(out: str, test: str) -> str:
    """PASSED / FAILED / SKIPPED / ERROR of one SAMPLE test, from the -v lines."""
    words = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].endswith(f"::{test}"):
            words.add(parts[1])
    assert words & {"PASSED", "FAILED", "SKIPPED", "ERROR"}, f"{test} not in the output:\n{out}"
    return "ERROR" if "ERROR" in words else min(words)


def group_line(out: str, group: str) -> list[int]:
    (line,) = [ln for ln in out.splitlines() if ln.split()[:1] == [group]]
    parts = line.split()
    return [int(parts[1]), int(parts[3]), int(parts[5])]  # passed, failed, skipped


def test_outside_ci_a_missing_requirement_skips_and_names_what_is_missing(tmp_path):
    out = inner_pytest(tmp_path, "-k", "not unmarked", ci=False)
    assert outcome(out, "test_needs_bwrap") == "SKIPPED"
    assert "needs bwrap: bubblewrap (bwrap) is not installed" in out
    assert "needs qemu: qemu-x86_64, gcc not found on PATH (package qemu-user, gcc)" in out
    assert "make system" in out
    assert group_line(out, "sandbox") == [0, 0, 2]
    assert group_line(out, "flows") == [1, 0, 0]
    assert group_line(out, "units") == [1, 0, 0]


def test_under_ci_a_missing_requirement_fails_and_names_it(tmp_path):
    out = inner_pytest(tmp_path, "-k", "not unmarked", ci=True, have=("qemu-x86_64", "gcc"))
    assert outcome(out, "test_needs_qemu") == "PASSED"
    assert outcome(out, "test_needs_bwrap") == "ERROR", out
    assert "CI=true, so this test fails instead of skipping: it needs bwrap" in out
    assert group_line(out, "sandbox") == [1, 1, 0]
    (tmp_path / "gcc-only").mkdir()
    out = inner_pytest(tmp_path / "gcc-only", "-k", "needs_qemu", ci=True, have=("gcc",))
    assert outcome(out, "test_needs_qemu") == "ERROR", out
    assert "it needs qemu, and qemu-x86_64 not found on PATH (package qemu-user)" in out


def test_bwrap_installed_but_unusable_counts_as_missing(tmp_path):
    out = inner_pytest(tmp_path, "-k", "needs_bwrap", ci=True, have=("bwrap",))
    assert outcome(out, "test_needs_bwrap") == "ERROR"
    assert "it needs bwrap, and bwrap is installed but a trial run failed" in out


def test_units_marker_selects_the_unit_tests_alone(tmp_path):
    out = inner_pytest(tmp_path, "-m", "units", "-k", "not unmarked", ci=True)
    assert outcome(out, "test_plain") == "PASSED"
    assert "1 passed, 4 deselected" in out
    assert group_line(out, "units") == [1, 0, 0]


def test_a_unit_test_that_starts_a_sandbox_must_be_marked(tmp_path):
    out = inner_pytest(tmp_path, "-k", "unmarked", ci=False, have=("bwrap",))
    assert outcome(out, "test_unmarked_but_starts_a_sandbox") == "ERROR"
    assert "started 1 bubblewrap sandbox(es) but is in the units group" in out
    assert "mark it requires_bwrap" in out


def test_unknown_requirement_is_a_clear_error():
    from tests.conftest import requires

    with pytest.raises(KeyError, match="unknown test requirement 'gpu'; known: bwrap, qemu"):
        requires("gpu")
