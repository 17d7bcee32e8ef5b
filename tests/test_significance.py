"""Intervals over tasks and the paired test (issue 28 item 8): a Beyond@1 or DPS is a mean over a
draw of tasks, and ``compare`` says whether two models differ beyond that draw's luck."""

from __future__ import annotations

import json
import random

import pytest

from quicksilver.compare import compare_reports
from quicksilver.significance import interval_settings, mean_interval, paired_test
from tests.test_compare import cli, mercury_row, report


def test_the_interval_brackets_the_mean_reproduces_and_narrows_with_more_tasks():
    rng = random.Random(3)
    few = [rng.random() for _ in range(12)]
    many = [rng.random() for _ in range(400)]
    lo, hi = mean_interval(few)
    assert lo < sum(few) / len(few) < hi
    assert mean_interval(few) == [lo, hi]  # a fixed seed: a report reproduces
    mlo, mhi = mean_interval(many)
    assert mhi - mlo < (hi - lo) / 3  # 33x the tasks: about a sixth of the width
    assert interval_settings()["confidence"] == 0.95


def test_no_interval_from_one_task_and_none_needed_for_equal_values():
    assert mean_interval([0.7]) is None and mean_interval([]) is None
    assert mean_interval([0.5, 0.5, 0.5]) == [0.5, 0.5]


def test_the_paired_test_tells_a_steady_gain_from_noise():
    gain = paired_test([3.0, 5.0, 4.0, 6.0, 2.0, 5.0, 4.0, 7.0, 3.0, -1.0, 5.0, 4.0])
    assert gain.n == 12 and gain.p_value is not None and gain.p_value < 0.01
    assert gain.delta_interval is not None and gain.delta_interval[0] > 0
    rng = random.Random(7)
    noise = paired_test([rng.gauss(0, 5) for _ in range(30)])
    assert noise.p_value is not None and noise.p_value > 0.05
    assert noise.delta_interval[0] < 0 < noise.delta_interval[1]
    same = paired_test([0.0, 0.0, 0.0])
    assert same.p_value == 1.0 and "zero" in same.note
    assert paired_test([]).p_value is None


def _reports(shift: float) -> tuple[dict, dict]:
    rng = random.Random(11)
    base = [rng.uniform(0.2, 0.8) for _ in range(15)]
    a = report(*(mercury_row(f"t{i}", min(1.0, b + shift), 1) for i, b in enumerate(base)))
    b = report(*(mercury_row(f"t{i}", b, 1) for i, b in enumerate(base)))
    return a, b


def test_compare_reports_a_paired_test_on_the_common_tasks():
    a, b = _reports(0.05)
    result = compare_reports(a, b)
    sig = result.significance
    assert sig is not None and sig.n == 15 and sig.mean_delta == pytest.approx(5.0, abs=0.5)
    assert sig.p_value is not None and sig.p_value < 0.01
    assert result.to_dict()["significance"]["test"].startswith("Wilcoxon signed-rank")
    even = compare_reports(a, a).significance
    assert even is not None and even.p_value == 1.0


def test_compare_command_prints_the_test(tmp_path):
    a, b = _reports(0.05)
    fa, fb, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "cmp.json"
    fa.write_text(json.dumps(a))
    fb.write_text(json.dumps(b))
    proc = cli("compare", fa, fb, "--json", out)
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.replace("│", " ").split())
    assert "A - B over 15 task(s): mean +5.0 points (95% CI +" in text, text
    assert "paired Wilcoxon signed-rank p = " in text
    assert json.loads(out.read_text())["significance"]["n"] == 15
    proc = cli("compare", fa, fa)
    text = " ".join(proc.stdout.replace("│", " ").split())
    assert "mean +0.0 points" in text and "(every difference is zero)" in text
    assert "not significant at 5%" in text


def test_the_score_report_carries_intervals_over_tasks(monkeypatch, tmp_path):
    from quicksilver.scoring import ReferenceCache, score
    from tests.conftest import QUICK, quick_sandbox
    from tests.test_scoring_dpe import STUB_REFS, StubProfiler, dpe_record, samples, stub

    StubProfiler(monkeypatch)
    records = [dpe_record(STUB_REFS, slug=s) for s in ("p", "q", "r")]
    rep = score(
        records,
        samples(p=[stub(0.5)], q=[stub(6.0)], r=[stub(0.5, "wrong")]),
        sandbox=quick_sandbox(),
        measure=QUICK,
        cache=ReferenceCache(tmp_path / "cache"),
    ).to_dict()
    assert rep["intervals"] == interval_settings()
    dps = [t["dps"] for t in rep["tasks"] if t["n_correct"] and t["dps"] is not None]
    assert len(dps) == 2 and rep["dps_ci"] == mean_interval(dps)
    lo, hi = rep["dps_ci"]
    assert lo <= rep["dps"] <= hi and lo < hi
    assert rep["pass_at_1_ci"] == mean_interval([t["pass_at_k"] for t in rep["tasks"]])
    assert rep["beyond_at_1_ci"] is None  # DPE tasks have no Beyond
