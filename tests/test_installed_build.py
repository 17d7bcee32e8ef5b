"""The builds run from an installed package (issue 28 item 9): the wheel holds the build flows
(quicksilver/orchestration/), and `quicksilver build mercury` builds a dataset from a folder
that is not a checkout, with nothing of the repository on its path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]

CLI = "import sys; from quicksilver.cli import app; sys.argv[0] = 'quicksilver'; app()"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The project's wheel (built as pip builds it, in an isolated environment), unpacked: the
    package as `pip install` would lay it out, without the checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy: building in place would leave build/ in the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "quicksilver", src / "quicksilver", ignore=shutil.ignore_patterns("__pycache__")
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = tmp.glob("quicksilver-*.whl")
    site = tmp / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    assert "quicksilver/orchestration/flows.py" in names
    assert not [n for n in names if n.startswith(("tasks/", "flows/", "tests/"))], names
    return site


def _quicksilver(
    site: Path, cwd: Path, *args: str, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "PREFECT_HOME": str(cwd / "prefect-home")}
    env.pop("PREFECT_API_URL", None)
    return subprocess.run(
        [sys.executable, "-P", "-c", CLI, *args],  # -P: not the working directory on the path
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def test_the_installed_package_is_the_one_that_runs(installed, tmp_path):
    probe = subprocess.run(
        [
            sys.executable,
            "-P",
            "-c",
            "import importlib.util as u, quicksilver.orchestration.flows as f; "
            "print(f.__file__); print(u.find_spec('tasks'), u.find_spec('flows'))",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(installed)},
        cwd=tmp_path,
        check=True,
    )
    where, missing = probe.stdout.splitlines()
    assert Path(where).is_relative_to(installed)
    assert missing == "None None"  # no top-level `tasks` or `flows` to lean on
    proc = _quicksilver(installed, tmp_path, "build", "mercury", "--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: quicksilver build mercury [-h] [--config CONFIG]")
    assert "--set KEY=VALUE" in proc.stdout and "-v, --verbose" in proc.stdout
    proc = _quicksilver(installed, tmp_path, "build", "nope")
    assert proc.returncode == 2 and "error: no build 'nope': mercury or dpe" in proc.stderr
    # the default config is a checkout's: outside one, one line says so
    proc = _quicksilver(installed, tmp_path, "build", "mercury")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("error: "), proc.stderr
    assert proc.stderr.strip() == (
        f"error: no configs/mercury.yaml in {tmp_path} (the default config, relative to the "
        "working directory): pass --config PATH (a checkout's configs/ has the shipped ones)"
    )


@requires_bwrap
def test_quicksilver_build_mercury_builds_from_the_installed_package(installed, tmp_path):
    out = tmp_path / "built"
    proc = _quicksilver(
        installed,
        tmp_path,
        "build",
        "mercury",
        "--config",
        str(ROOT / "configs" / "mercury.yaml"),
        "--set",
        f"snapshots=[{json.dumps(str(ROOT / 'data' / 'snapshot' / 'bundled'))}]",
        "--set",
        f"out_dir={out}",
        "--set",
        'only=["best-single-trade"]',
        "--set",
        "testcases.n=6",
        "--set",
        "testcases.min_cases=3",
        "--set",
        "synthesis.size_cap=40",
        "--set",
        "splits.eval_size=1",
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert f"dataset: {out} (parquet/, hf/, README.md)" in proc.stdout, proc.stdout[-3000:]
    (parquet,) = (out / "parquet").glob("*.parquet")
    rows = pq.read_table(parquet).to_pylist()
    assert [r["slug_name"] for r in rows] == ["best-single-trade"]
    assert rows[0]["solutions"] and rows[0]["test_cases"]
    assert "progress: Mercury build: " in proc.stderr  # the build said where it was
