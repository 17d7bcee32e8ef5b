"""The build's table artifacts as the Prefect UI shows them (quicksilver/orchestration/artifacts.py): rendered by a
real `prefect server` UI in headless Chromium, a cell reads as its text (a lone "-" is not an
empty bullet) and a stage's drop reasons are lines of one cell."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import requires_chromium
from tests.prefect_servers import prefect_server

FUNNEL = [
    {"stage": "load", "tasks_in": 46, "tasks_out": 46, "solutions_in": 300, "solutions_out": 300,
     "drops": {}, "seconds": 0.6},
    {"stage": "uniqueness", "tasks_in": 37, "tasks_out": 36, "solutions_in": 242,
     "solutions_out": 229, "seconds": 6.7,
     "drops": {"multiple-valid-answers": 1, "near-duplicate": 2, "wrong-answer": 4},
     "drop_tasks": {"multiple-valid-answers": 1},
     "drop_solutions": {"multiple-valid-answers": 7, "near-duplicate": 2, "wrong-answer": 4}},
]  # fmt: skip


@pytest.fixture(scope="module")
def ui(tmp_path_factory) -> Iterator[str]:
    """A Prefect server with its UI on a free port (the UI calls this server's API)."""
    with prefect_server(tmp_path_factory.mktemp("prefect-ui")) as server:
        yield server.api


def _rendered(api: str, artifact_id: object, profile: Path) -> str:
    """The artifact's page in the UI once its table is drawn (Chromium's DOM after the scripts)."""
    url = api.removesuffix("/api") + f"/artifacts/artifact/{artifact_id}"
    for budget in (20_000, 60_000):  # a loaded machine may need longer to draw
        proc = subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                f"--user-data-dir={profile}",
                f"--virtual-time-budget={budget}",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        if "<table" in proc.stdout and "uniqueness" in proc.stdout:
            return proc.stdout
    raise AssertionError(f"the UI drew no table for {url}: {proc.stdout[-2000:]}")


def _table(dom: str) -> str:
    match = re.search(r"<table.*?</table>", dom, re.S)
    assert match, dom[-2000:]
    return match.group(0)


_RECORD = """
import json, sys
from prefect import flow
from prefect.artifacts import create_table_artifact
from quicksilver.funnel import funnel_rows
from quicksilver.orchestration.artifacts import table_artifact

rows = funnel_rows(json.loads(sys.argv[1]))


@flow
def record():  # as a build records its funnel
    ours = table_artifact("funnel-ui-check", rows, "Counts per stage")
    raw = create_table_artifact(key="funnel-ui-raw", table=rows, description="unescaped")
    return str(ours), str(raw)


print(json.dumps(record()))
"""


@requires_chromium
def test_the_funnel_artifact_renders_its_cells_as_they_read(ui: str, tmp_path: Path) -> None:
    # recorded by a process of its own, as a build does: this process's Prefect client and its
    # settings stay on the session's test server (the UI server stops with this module)
    env = {**os.environ, "PREFECT_API_URL": ui, "PREFECT_HOME": str(tmp_path / "home")}
    proc = subprocess.run(
        [sys.executable, "-c", _RECORD, json.dumps(FUNNEL)],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    ours, raw = json.loads(proc.stdout.strip().splitlines()[-1])
    # the check can fail: the UI turns the raw rows' lone "-" into a list item
    assert "<li" in _table(_rendered(ui, raw, tmp_path / "raw"))
    table = _table(_rendered(ui, ours, tmp_path / "ours"))
    assert "<li" not in table and "<ul" not in table, table
    text = re.sub(r"<[^>]+>", "|", table)
    cells = [c.strip() for c in text.split("|") if c.strip()]
    assert cells[:5] == [
        "stage", "tasks (in → out)", "solutions (in → out)", "seconds", "dropped (reason: count)"
    ]  # fmt: skip
    assert cells[5:10] == ["load", "46 → 46", "300 → 300", "0.6", "-"]
    assert cells[10:14] == ["uniqueness", "37 → 36", "242 → 229", "6.7"]
    assert cells[14:17] == [
        "multiple-valid-answers: 1 task (7 solutions)",
        "near-duplicate: 2 solutions",
        "wrong-answer: 4 solutions",
    ]
    # the reasons are lines of one cell, not one long line that pushes the table out of view
    tags = r"(?:\s*<[^>]*>\s*)*"  # the UI wraps the break in a sanitising span
    assert re.search(rf"7 solutions\){tags}<br\s*/?>{tags}near-duplicate", table), table
