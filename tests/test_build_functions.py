"""End to end: function-style tasks (HumanEval-shaped, no LeetCode metaData, no difficulty) with
several solutions each, attached as a ``{task_id, completion}`` sample file, built into both
formats, then ``quicksilver score`` on HumanEval-style samples against each result.

tests/data/functions/ holds four hand-written tasks in HumanEval's shape (a prompt with a
docstring and doctests, a ``check(candidate)``, the reference as prompt + body) and a sample file
of four hand-written completions per task, some bodies continuing the prompt and some whole
functions: faster and slower correct ones and one wrong one each (its comment says so; the build
never reads comments). They are written for these tests, not sampled from a model
(``--model hand-written``).

- Mercury: the samples attached with ``quicksilver snapshot attach-samples``; every wrong sample is
  dropped by agreement (``wrong-answer``), the others are published with runtimes;
- DPE: the samples given as ``candidates.sample_files``; every task is published with two or more
  clusters, ``task_kind: function``;
- score: ``{task_id: "ToyFn/N", completion}`` samples, bodies and whole functions, against both;
- HumanEval alone (one canonical solution per task) makes the DPE build stop before its first
  stage, saying it needs more solutions, and write nothing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quicksilver.config import DPEBuildConfig, load_build_config
from quicksilver.pipeline.files import read_jsonl
from quicksilver.rows import load_records
from tests.conftest import requires_bwrap
from tests.test_build_dpe import _flow_module as _dpe_flow_module
from tests.test_build_dpe import _run as _run_dpe
from tests.test_build_mercury import _flow_module as _mercury_flow_module
from tests.test_build_mercury import _run as _run_mercury

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "functions"
SLUGS = ["toyfn-0", "toyfn-1", "toyfn-2", "toyfn-3"]
MODEL = "hand-written"


def _samples() -> list[dict[str, str]]:
    return [json.loads(line) for line in (DATA / "samples.jsonl").read_text().splitlines()]


def _wrong(code: str) -> bool:
    return ": wrong" in code  # the fixture's own marker, for the test's eyes only


def _mercury_config(snapshot: Path, out: Path) -> dict[str, Any]:
    overrides = [
        f"out_dir={out}",
        f"snapshots={json.dumps([str(snapshot)])}",
        "testcases.n=10",
        "testcases.min_cases=3",
        "testcases.solution_cpu_seconds=5",
        "synthesis.size_cap=40",
        "splits.eval_size=2",
        "runner.shard_size=2",
        "runner.workers=2",
    ]
    cfg = load_build_config(ROOT / "configs" / "mercury.yaml", overrides).resolve(ROOT)
    return cfg.model_dump(mode="json")


def _dpe_overrides(out: Path, snapshot: Path) -> list[str]:
    return [
        f"out_dir={out}",
        f"snapshots={json.dumps([str(snapshot)])}",
        "testcases.n=8",
        "testcases.min_cases=3",
        "testcases.solution_cpu_seconds=5",
        "synthesis.size_cap=40",
        "filters.min_solutions=2",
        "sampling.time_wall_seconds=0.05",
        "sampling.finish_cpu_seconds=0.2",
        "sampling.max_scale_exp=12",
        "pe_profile.measure.min_rounds=3",
        "pe_profile.measure.max_rounds=3",
        "pe_profile.measure.budget_seconds=1",
        "selection.min_solutions=3",
        "selection.min_clusters=2",
        "selection.max_p99_cv=1.0",
        "runner.shard_size=2",
        "runner.workers=2",
    ]


def _dpe_config(snapshot: Path, out: Path) -> dict[str, Any]:
    samples = json.dumps([{"path": str(DATA / "samples.jsonl"), "model": MODEL}])
    overrides = [*_dpe_overrides(out, snapshot), f"candidates.sample_files={samples}"]
    cfg = load_build_config(ROOT / "configs" / "dpe.yaml", overrides, cls=DPEBuildConfig)
    return cfg.resolve(ROOT).model_dump(mode="json")


@pytest.fixture(scope="module")
def built(prefect_harness, tmp_path_factory) -> dict[str, Any]:
    from typer.testing import CliRunner

    from quicksilver.cli import app

    base = tmp_path_factory.mktemp("functions")
    attached = base / "snapshot-attached"
    shutil.copytree(DATA / "snapshot", attached)
    result = CliRunner().invoke(
        app,
        [
            "snapshot",
            "attach-samples",
            str(attached),
            "--samples",
            str(DATA / "samples.jsonl"),
            "--model",
            MODEL,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "attached 16 sample(s) to 4 question(s)" in result.output
    mercury, _states, _run_id = _run_mercury(
        _mercury_flow_module(), _mercury_config(attached, base / "m")
    )
    dpe = _run_dpe(_dpe_flow_module(), _dpe_config(DATA / "snapshot", base / "d"))
    return {"base": base, "mercury": mercury, "dpe": dpe, "m": base / "m", "d": base / "d"}


def _funnel(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["stage"]: row for row in result["funnel"]}


def test_mercury_build_publishes_every_task_without_its_wrong_sample(built):
    funnel = _funnel(built["mercury"])
    assert funnel["load"]["tasks_out"] == 4 and funnel["load"]["solutions_out"] == 20
    assert funnel["filters"]["drops"] == {}  # no metaData, no difficulty: kept
    assert funnel["uniqueness"]["drops"] == {"wrong-answer": 4}
    wrong = [
        r
        for p in sorted((built["m"] / "stages" / "uniqueness").glob("*rejects.jsonl"))
        for r in read_jsonl(p)
        if "hash" in r
    ]
    assert len(wrong) == 4 and all(_wrong(r["code"]) for r in wrong), wrong
    loaded = load_records(built["m"] / "hf")
    assert not loaded.rejects
    rows = {r.slug_name: r for r in loaded.records}
    assert sorted(rows) == SLUGS
    for slug, row in rows.items():
        assert row.task_kind == "function" and row.difficulty == ""
        assert row.meta_info["data"]["question"]["questionId"] == f"ToyFn/{slug[-1]}"
        assert len(row.solutions) == 4, slug  # the reference and 3 correct samples
        assert not any(_wrong(s.solution) for s in row.solutions)
        assert all(s.runtime for s in row.solutions)
        assert len(row.cases()) >= 3
    # the task's own asserts are among the published cases, with the check's answers
    cases = {json.dumps(c.inputs): c.expected for c in rows["toyfn-0"].cases()}
    assert cases[json.dumps([[2, 2, 2], 4])] == 3
    assert cases[json.dumps([[-3, 8, 0, 3, -1, 9], 0])] == 1
    splits = json.loads((built["m"] / "stages" / "splits" / "splits.json").read_text())
    assert len(splits["splits"]["eval"]) == 2 and len(splits["splits"]["train"]) == 2
    card = (built["m"] / "README.md").read_text()
    assert "| unrated |" in card


def test_dpe_build_clusters_every_task_from_the_sample_file(built):
    funnel = _funnel(built["dpe"])
    assert funnel["candidates"]["solutions_out"] == 20  # 4 references + 16 samples
    assert funnel["uniqueness"]["drops"] == {"wrong-answer": 4}
    loaded = load_records(built["d"] / "hf")
    assert not loaded.rejects
    rows = {r.task_id: r for r in loaded.records}
    assert sorted(rows) == SLUGS
    for task_id, rec in rows.items():
        extra = rec.model_extra or {}
        assert rec.task_kind == "function" and rec.difficulty == ""
        assert rec.scores and len(rec.scores) >= 2 and rec.scores[-1] == 100.0, task_id
        assert rec.reference and all(f"def {rec.entry_point}(" in c for c in rec.reference)
        assert not any(_wrong(c) for c in rec.reference)
        models = {c["model"] for c in extra["solution_costs"]}
        assert MODEL in models, task_id
        assert json.loads(rec.pe_input or "[]"), task_id
    # the quadratic running maximum costs more than the linear one on the perf input
    costs = {c["hash"]: c["cost"] for c in (rows["toyfn-2"].model_extra or {})["solution_costs"]}
    assert max(costs.values()) > 5 * min(costs.values())


def _score(dataset: Path, samples: Path, out: Path, cache: Path) -> dict[str, Any]:
    from typer.testing import CliRunner

    from quicksilver.cli import app

    result = CliRunner().invoke(
        app,
        [
            "score",
            "--dataset",
            str(dataset),
            "--samples",
            str(samples),
            "--out",
            str(out),
            "--cache-dir",
            str(cache),
            "--timeout",
            "20",
        ],
    )
    assert result.exit_code == 0, result.output
    return dict(json.loads(out.read_text()))


def _humaneval_style_samples(path: Path) -> dict[str, list[str]]:
    """Per task, in this order: a fast correct sample, a slow correct one, the wrong one (bodies
    and whole functions, as evalplus and the bigcode harness write them: task_id ToyFn/N)."""
    by_task: dict[str, list[str]] = {}
    for s in _samples():
        by_task.setdefault(s["task_id"], []).append(s["completion"])
    pick = {"ToyFn/0": (0, 2), "ToyFn/1": (0, 1), "ToyFn/2": (1, 0), "ToyFn/3": (1, 0)}
    chosen: dict[str, list[str]] = {}
    with path.open("w") as f:
        for task_id, (fast, slow) in pick.items():
            wrong = next(c for c in by_task[task_id] if _wrong(c))
            chosen[task_id] = [by_task[task_id][fast], by_task[task_id][slow], wrong]
            for code in chosen[task_id]:
                f.write(json.dumps({"task_id": task_id, "completion": code}) + "\n")
    return chosen


def test_score_humaneval_style_samples_against_both(built, tmp_path):
    samples = tmp_path / "samples.jsonl"
    _humaneval_style_samples(samples)
    # Mercury: pass and Beyond per task
    mercury = _score(built["m"] / "hf", samples, tmp_path / "m.json", tmp_path / "cache")
    tasks = {t["task_id"]: t for t in mercury["tasks"]}
    assert sorted(tasks) == SLUGS, mercury.get("missing")
    for slug, task in tasks.items():
        statuses = [s["status"] for s in task["samples"]]
        assert statuses[:2] == ["passed", "passed"] and statuses[2] != "passed", (slug, statuses)
    # DPE: DPS for the correct ones, none for the wrong one
    dpe = _score(built["d"] / "hf", samples, tmp_path / "d.json", tmp_path / "cache")
    assert dpe["dps_tasks"] == 4 and dpe["dps"] is not None
    by_task = {t["task_id"]: t for t in dpe["tasks"]}
    for slug, task in by_task.items():
        assert task["n_correct"] == 2, slug
        dps = [s["dps"] for s in task["samples"]]
        assert dps[2] is None and dps[0] is not None and dps[1] is not None, (slug, dps)
    quadratic = by_task["toyfn-2"]["samples"]  # accumulate against max over prefixes
    assert quadratic[0]["dps"] > quadratic[1]["dps"]


@requires_bwrap
def test_humaneval_alone_makes_the_dpe_build_say_it_needs_solutions(tmp_path):
    from quicksilver.sources.humaneval import convert_humaneval
    from quicksilver.sources.snapshot import write_snapshot

    snapshot = tmp_path / "humaneval"
    for snap in convert_humaneval()[:6]:
        write_snapshot(snapshot, snap)
    out = tmp_path / "out"
    sets = [a for o in _dpe_overrides(out, snapshot) for a in ("--set", o)]
    sets += ["--set", "filters.min_solutions=4", "--set", "pe_profile.measure.meter=cpu"]
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "flows" / "build_dpe.py"),
            "--config",
            "configs/dpe.yaml",
            *sets,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 3, proc.stderr[-2000:]
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("error: every one of the 6 question(s) has fewer than 4 solutions")
    assert "the DPE build needs several solutions per task" in line
    assert "quicksilver snapshot attach-samples" in line and "candidates.llm" in line
    assert not out.exists()  # nothing built, nothing kept
