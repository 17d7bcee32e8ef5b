"""quicksilver.compare and ``quicksilver compare``: two score reports compared on the tasks both
passed, with per-task DPS / Beyond, means over the common set, wins / ties / losses, and the
tasks only one side passed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quicksilver.compare import ReportError, compare_reports, load_report, passed
from quicksilver.scoring import ReferenceCache, score
from tests.conftest import QUICK, quick_sandbox
from tests.test_scoring_dpe import STUB_REFS, StubProfiler, dpe_record, samples, stub

QUICKSILVER = Path(sys.executable).with_name("quicksilver")


def dpe_row(task: str, dps: float | None, norm: float | None, n_correct: int) -> dict[str, Any]:
    return {
        "task_id": task,
        "difficulty": "",
        "n": 3,
        "c": n_correct,
        "pass_at_k": 1.0 if n_correct else 0.0,
        "beyond": None,
        "percentile": None,
        "unscorable": True,
        "dpe": True,
        "n_correct": n_correct,
        "dps": dps,
        "dps_norm": norm,
        "samples": [],
    }


def mercury_row(task: str, beyond: float, c: int, difficulty: str = "Easy") -> dict[str, Any]:
    return {
        "task_id": task,
        "difficulty": difficulty,
        "n": 1,
        "c": c,
        "pass_at_k": float(c > 0),
        "beyond": beyond,
        "percentile": None,
        "unscorable": False,
        "dpe": False,
        "n_correct": c,
        "dps": None,
        "dps_norm": None,
        "samples": [],
    }


def report(*rows: dict[str, Any], machine: str = "m1", meter: str = "cpu") -> dict[str, Any]:
    return {
        "pass_at_1": 0.5,
        "beyond_at_1": None,
        "pass_at_k": 0.5,
        "n_tasks": len(rows),
        "meter": meter,
        "unit": "s",
        "isolation": "bwrap",
        "machine": {"machine_id": machine},
        "missing_tasks": [],
        "sample_rejects": [],
        "tasks": list(rows),
    }


A = report(
    dpe_row("t1", 80.0, 75.0, 2),
    dpe_row("t2", 50.5, 50.0, 1),
    dpe_row("t3", 30.0, 25.0, 3),
    mercury_row("t4", 0.9, 1),
    dpe_row("t5", 70.0, 50.0, 1),  # B has no correct sample
    dpe_row("t6", None, None, 1),  # correct, but A's references all failed: not passed
    mercury_row("t7", 0.0, 0),  # neither passed
    dpe_row("t8", 10.0, 25.0, 1),  # not in B's report
)
B = report(
    dpe_row("t1", 40.0, 50.0, 1),
    dpe_row("t2", 50.0, 50.0, 2),
    dpe_row("t3", 60.0, 75.0, 1),
    mercury_row("t4", 0.5, 1),
    dpe_row("t5", None, None, 0),
    dpe_row("t6", 40.0, 50.0, 1),
    mercury_row("t7", 0.0, 0),
    mercury_row("t9", 0.7, 1),  # not in A's report
)


def test_common_set_means_and_tally():
    cmp = compare_reports(A, B)
    assert [t.task for t in cmp.common] == ["t1", "t2", "t3", "t4"]
    by = {t.task: t for t in cmp.common}
    assert (by["t1"].dps_a, by["t1"].dps_b, by["t1"].winner) == (80.0, 40.0, "a")
    assert (by["t2"].winner, by["t2"].delta) == ("tie", pytest.approx(0.5))
    assert (by["t3"].winner, by["t3"].decided_by, by["t3"].delta) == ("b", "dps", -30.0)
    # a Mercury task is decided on Beyond, in points
    assert (by["t4"].decided_by, by["t4"].winner) == ("beyond", "a")
    assert by["t4"].delta == pytest.approx(40.0)
    assert (by["t4"].beyond_a, by["t4"].beyond_b) == (0.9, 0.5)

    dps = cmp.means["dps"]
    assert dps.n == 3
    assert dps.a == pytest.approx((80.0 + 50.5 + 30.0) / 3)
    assert dps.b == pytest.approx((40.0 + 50.0 + 60.0) / 3)
    assert (cmp.means["dps_norm"].a, cmp.means["dps_norm"].b) == (50.0, 175.0 / 3)
    assert (cmp.means["beyond"].a, cmp.means["beyond"].b, cmp.means["beyond"].n) == (0.9, 0.5, 1)

    assert (cmp.tally.wins_a, cmp.tally.ties, cmp.tally.wins_b) == (2, 1, 1)
    assert (cmp.by_metric["dps"].wins_a, cmp.by_metric["dps"].ties) == (1, 1)
    assert cmp.by_metric["dps"].wins_b == 1 and cmp.by_metric["beyond"].wins_a == 1

    assert cmp.only_a == ["t5", "t8"]
    assert cmp.only_b == ["t6", "t9"]
    assert cmp.neither == ["t7"]
    assert (cmp.not_in_a, cmp.not_in_b) == (["t9"], ["t8"])
    assert cmp.warnings == []
    json.dumps(cmp.to_dict())


def test_tie_threshold_and_swapped_sides():
    strict = compare_reports(A, B, tie=0.1)
    assert {t.task: t.winner for t in strict.common}["t2"] == "a"
    swapped = compare_reports(B, A)
    assert (swapped.tally.wins_a, swapped.tally.ties, swapped.tally.wins_b) == (1, 1, 2)
    assert swapped.only_a == ["t6", "t9"] and swapped.only_b == ["t5", "t8"]


def test_passed_rule():
    assert passed(dpe_row("x", 0.0, 0.0, 1))  # a DPS of 0 is still a pass
    assert not passed(dpe_row("x", None, None, 2))
    assert not passed(dpe_row("x", 50.0, 50.0, 0))
    assert passed(mercury_row("x", 0.0, 1)) and not passed(mercury_row("x", 0.0, 0))
    # older reports: no n_correct / dpe flag; the samples and the dps decide
    old = {"task_id": "x", "dps": 20.0, "samples": [{"status": "passed"}, {"status": "failed"}]}
    assert passed(old) and not passed({**old, "samples": [{"status": "failed"}]})


def test_different_machines_or_meters_warn():
    cmp = compare_reports(A, report(*B["tasks"], machine="m2", meter="callgrind"))
    assert len(cmp.warnings) == 2
    assert "different meters (cpu vs callgrind)" in cmp.warnings[0]
    assert "different machines" in cmp.warnings[1]
    empty = compare_reports(report(mercury_row("t", 0.0, 0)), report(mercury_row("t", 0.0, 0)))
    assert empty.common == [] and "nothing to compare" in empty.warnings[-1]
    # one meter, two DPS match tolerances (score --dps-tolerance)
    tol = compare_reports(
        {**A, "dps_tolerance": 0.1}, {**report(*B["tasks"]), "dps_tolerance": 0.0}
    )
    assert tol.warnings == [
        "the reports matched DPS with different tolerances (0.1 vs 0.0): a sample just above a "
        "reference counts differently"
    ]


def test_reports_written_by_score_compare(tmp_path, monkeypatch):
    """The layout compare reads is the one ScoreReport.to_dict writes."""
    StubProfiler(monkeypatch)
    records = [dpe_record(STUB_REFS, slug="p"), dpe_record(STUB_REFS, slug="q")]

    def write(name: str, **group: list[str]) -> Path:
        rep = score(
            records,
            samples(**group),
            sandbox=quick_sandbox(),
            measure=QUICK,
            cache=ReferenceCache(tmp_path / "cache"),
        )
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(rep.to_dict()))
        return path

    fast = write("fast", p=[stub(0.5), stub(1.5)], q=[stub(0.5, "wrong")])
    slow = write("slow", p=[stub(6.0)], q=[stub(3.0)])
    cmp = compare_reports(load_report(fast), load_report(slow))
    (p,) = cmp.common
    assert (p.task, p.dps_a, p.dps_b, p.winner) == ("p", 85.0, 10.0, "a")
    assert (p.dps_norm_a, p.dps_norm_b) == (87.5, 25.0)
    assert cmp.only_b == ["q"] and cmp.only_a == []


# --- the command -------------------------------------------------------------------------------


def cli(*args: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300", "NO_COLOR": "1"}
    return subprocess.run(
        [str(QUICKSILVER), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_compare_command_prints_a_table_and_writes_json(tmp_path):
    a, b, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "cmp.json"
    a.write_text(json.dumps(A))
    b.write_text(json.dumps(B))
    proc = cli("compare", a, b, "--json", out)
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.replace("│", " ").split())
    assert "common tasks: 4" in text
    assert "dps: A 53.5 B 50.0 (over 3 tasks)" in text
    assert "A better: 2 ties: 1 B better: 1" in text
    assert "passed by A only (2): t5, t8" in text
    assert "passed by B only (2): t6, t9" in text
    assert "t1 ? 80.0 40.0 +40.0 - - A" in text  # a table row
    data = json.loads(out.read_text())
    assert [t["task"] for t in data["common"]] == ["t1", "t2", "t3", "t4"]
    assert data["tally"] == {"wins_a": 2, "ties": 1, "wins_b": 1}
    assert data["means"]["dps"]["n"] == 3
    assert (data["a"], data["b"]) == (str(a), str(b))


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        ("[1, 2]", "not a score report (a JSON list)"),
        (
            '{"task_id": "t1", "completion": "x"}\n{"task_id": "t2", "completion": "y"}\n',
            "not JSON",
        ),
        ('{"pass_at_1": 1.0}', "not a score report (no 'tasks', 'meter')"),
        ('{"tasks": {}, "meter": "cpu"}', "'tasks' is not a list"),
        ('{"tasks": [{"dps": 1}], "meter": "cpu"}', "task #0 of the report has no task_id"),
        (None, "cannot read"),
    ],
)
def test_bad_file_is_a_clear_error(tmp_path, content, complaint):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(A))
    if content is not None:
        bad.write_text(content)
    with pytest.raises(ReportError, match=r"bad\.json"):
        load_report(bad)
    proc = cli("compare", good, bad)
    assert proc.returncode == 2
    err = " ".join(proc.stderr.split())
    assert "error:" in err and str(bad) in err and complaint in err
    assert "Traceback" not in proc.stderr
