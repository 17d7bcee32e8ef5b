"""The Mercury build flow end to end on a small config, under prefect_test_harness.

One build (module-scoped) of thirteen bundled questions chosen so that every stage has work: a
paid-only question, an unsupported type, a single-solution question, near-duplicates, a task the
offline synthesizer reports, order-free answers, several valid answers, linked lists, a tree, an
in-place problem, a double answer, solutions that use names only the sandbox injects. Then: a
rerun reuses every stage (Prefect task runs end Cached); an interrupted build (one shard's profile
lost) redoes only that shard; `quicksilver score` scores each task's own reference solutions as
passed; every published solution passes in the Mercury authors' evaluator.
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from quicksilver.config import load_build_config
from quicksilver.pipeline.files import read_jsonl
from quicksilver.pipeline.refs import read_stage_rows
from quicksilver.rows import load_records
from quicksilver.synth import OFFLINE_SYNTHESIZER
from tests.conftest import requires_bwrap, requires_chromium
from tests.mercury_evaluator import judge_rows

pytestmark = [requires_bwrap, pytest.mark.flows]

ROOT = Path(__file__).resolve().parents[1]
SLUGS = [
    "meeting-room-count",  # paid-only
    "clone-chain-with-jumps",  # unsupported type (Node)
    "max-path-total",  # a single solution
    "pair-sum-indices",  # near-duplicates; constraints the offline synthesizer reports
    "has-repeated-value",  # a near-duplicate
    "cluster-anagrams",  # answers in any order
    "longest-mirror-substring",  # several valid answers
    "reverse-chain",  # ListNode in and out
    "zeroes-to-end",  # in place
    "two-sorted-median",  # double
    "primes-below",  # a scalar input
    "mirror-tree",  # TreeNode in and out
    "window-maxima",  # a solution using SortedList without importing it
]


def _flow_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "build_mercury_flow", ROOT / "flows" / "build_mercury.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config(out: Path) -> dict[str, Any]:
    overrides = [
        f"out_dir={out}",
        f"only={json.dumps(SLUGS)}",
        "testcases.n=6",
        "testcases.min_cases=3",
        "testcases.solution_cpu_seconds=5",
        "synthesis.size_cap=40",
        "profile.measure.min_rounds=1",
        "profile.measure.max_rounds=2",
        "profile.measure.budget_seconds=0.3",
        "profile.sandbox.limits.cpu_seconds=30",
        "splits.eval_size=3",
        "runner.shard_size=3",
        "runner.workers=2",
    ]
    cfg = load_build_config(ROOT / "configs" / "mercury.yaml", overrides).resolve(ROOT)
    return cfg.model_dump(mode="json")


def _task_states(flow_run_id: Any) -> dict[str, str]:
    """Final state name per task run of a flow run.

    Task run states reach the API asynchronously: right after the flow returns, the last task
    runs may still read Pending or Running there, so wait (up to a minute) until none does.
    """
    import time

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    deadline = time.monotonic() + 60
    while True:
        with get_client(sync_client=True) as client:
            runs = client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
            )
        states = {
            r.name.rsplit("-", 1)[0] if "shard" not in r.name else r.name: r.state.name
            for r in runs
            if r.state is not None
        }
        settled = len(states) == len(runs) and not any(
            s in ("Pending", "Running", "Scheduled") for s in states.values()
        )
        if settled or time.monotonic() > deadline:
            return states
        time.sleep(0.5)


def _run(flow: Any, config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str], Any]:
    from prefect.task_runners import ThreadPoolTaskRunner

    state = flow.build_mercury.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))(
        config, return_state=True
    )
    assert state.is_completed(), state.message
    run_id = state.state_details.flow_run_id
    return state.result(), _task_states(run_id), run_id


@pytest.fixture(scope="module")
def built(prefect_harness, tmp_path_factory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("build") / "mercury"
    flow = _flow_module()
    config = _config(out)
    result, states, run_id = _run(flow, config)
    return {
        "out": out,
        "flow": flow,
        "config": config,
        "result": result,
        "states": states,
        "run_id": run_id,  # its artifacts (other builds in the session write the same keys)
    }


def _funnel(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["stage"]: row for row in result["funnel"]}


def test_every_stage_ran_and_every_filter_dropped_for_a_reason(built):
    funnel = _funnel(built["result"])
    assert list(funnel) == [
        "load",
        "dedup",
        "filters",
        "generators",
        "testcases",
        "uniqueness",
        "profile",
        "splits",
        "publish",
    ]
    assert funnel["load"]["tasks_in"] == len(SLUGS)
    # near-duplicates are marked by dedup and removed by uniqueness among passing solutions
    assert "near-duplicate" not in funnel["dedup"]["drops"]
    assert funnel["uniqueness"]["drops"]["near-duplicate"] >= 1
    assert funnel["filters"]["drops"] == {"paid-only": 1, "unsupported-type": 1, "min-solutions": 1}
    assert funnel["generators"]["drops"] == {"needs-llm-generator": 1}
    assert funnel["uniqueness"]["drops"].get("multiple-valid-answers") == 1
    for a, b in zip(built["result"]["funnel"], built["result"]["funnel"][1:], strict=False):
        assert b["tasks_in"] == a["tasks_out"], (a["stage"], b["stage"])
    out = built["out"]
    rejects = {
        r["slug"]: r
        for r in read_jsonl(out / "stages" / "filters" / "rejects.jsonl")
        if "hash" not in r
    }
    assert rejects["meeting-room-count"]["reason"] == "paid-only"
    assert "Node" in rejects["clone-chain-with-jumps"]["detail"]
    assert "1 solution(s) after dedup" in rejects["max-path-total"]["detail"]
    marked = [  # the solutions of the dedup stage's records
        r
        for rec in read_stage_rows(out / "stages" / "dedup" / "records.jsonl")
        for r in rec["solutions"]
        if "near_group" in r
    ]
    assert len([r for r in marked if r["near_group"] != r["hash"]]) >= 4
    assert all(r["slug"] in SLUGS for r in marked)
    (near,) = [
        r
        for f in sorted((out / "stages" / "uniqueness").glob("*.rejects.jsonl"))
        for r in read_jsonl(f)
        if r["reason"] == "near-duplicate"
    ]
    assert near["slug"] == "has-repeated-value" and "same answers on all" in near["detail"]
    (synth,) = [
        r for r in read_jsonl(out / "stages" / "generators" / "rejects.jsonl") if "hash" not in r
    ]
    assert synth["slug"] == "pair-sum-indices" and "Exactly one pair" in synth["detail"]


def test_published_dataset_has_mercury_rows_with_provenance(built):
    out = built["out"]
    assert (out / "parquet" / "train.parquet").is_file() and (
        out / "parquet" / "eval.parquet"
    ).is_file()
    loaded = load_records(out / "hf")
    assert not loaded.rejects
    rows = {r.slug_name: r for r in loaded.records}
    kept = set(SLUGS) - {
        "meeting-room-count",
        "clone-chain-with-jumps",
        "max-path-total",
        "pair-sum-indices",
        "longest-mirror-substring",
    }
    assert set(rows) == kept
    assert sorted(loaded.splits) == ["eval", "train"]
    assert len(loaded.splits["eval"]) == 3
    import pyarrow.parquet as pq

    ev = pq.read_table(out / "parquet" / "eval.parquet").to_pylist()
    assert sorted(r["difficulty"] for r in ev) == ["Easy", "Hard", "Medium"]
    tr = pq.read_table(out / "parquet" / "train.parquet").to_pylist()
    assert {r["slug_name"] for r in ev} | {r["slug_name"] for r in tr} == kept
    by_slug = {r["slug_name"]: r for r in ev + tr}
    anagrams = by_slug["cluster-anagrams"]
    assert anagrams["answer_any_order"] is True and "sorted(" in anagrams["evaluate_offline"]
    assert by_slug["zeroes-to-end"]["answer_any_order"] is False
    for row in by_slug.values():
        assert row["generator_path"] == "offline" and row["generator_model"] == OFFLINE_SYNTHESIZER
        assert "def generate_test_case" in row["generator_code"]
        cases = json.loads(row["test_cases"])
        assert len(cases) == row["n_generated_cases"] + row["n_example_cases"] >= 3
        assert row["runtime_meter"] == "icount" and row["runtime_unit"] == "instructions"
        # the judge-format strings come from the exact counts at the measured rate
        assert row["instruction_rate"] > 1e8
        assert all(r["rounds"] == 1 and r["converged"] for r in row["reference_runtimes"])
        assert len(row["solutions"]) >= 2
        assert {s["hash"] for s in row["solutions"]} == {
            r["hash"] for r in row["reference_runtimes"]
        }
        # whole milliseconds, as LeetCode writes them: the Mercury authors' DPO script reads
        # int(runtime[:-2]), and the counts convert at the recorded rate
        rate = row["instruction_rate"]
        counts = {r["hash"]: r["runtime"] for r in row["reference_runtimes"]}
        for s in row["solutions"]:
            assert s["runtime"].endswith("ms")
            assert int(s["runtime"][:-2]) == math.floor(counts[s["hash"]] / rate * 1e3 + 0.5)
        assert all(r["runtime"] > 0 for r in row["reference_runtimes"])
        assert "hostname" not in json.loads(row["machine"])
        # memory measured by the host for every reference, per case (docs/profiler.md)
        memory = {m["hash"]: m for m in row["reference_peak_memory"]}
        assert set(memory) == {s["hash"] for s in row["solutions"]}
        for m in memory.values():
            assert m["peak_memory_bytes"] is not None and 0 <= m["peak_memory_bytes"] < 1 << 30
            assert len(m["case_peak_memory_bytes"]) == len(cases)
            assert all(c is not None and c >= 0 for c in m["case_peak_memory_bytes"])
            assert m["peak_memory_bytes"] >= max(m["case_peak_memory_bytes"])
        # counts that travel (docs/profiler.md, "Shipped counts"): this machine's fingerprint,
        # its parts, and what scoring reads of a reference besides its count
        from quicksilver.count_fingerprint import count_environment, fingerprint_digest

        assert row["count_fingerprint"] == count_environment("bwrap")["digest"]
        env = json.loads(row["count_environment"])
        assert fingerprint_digest(env["compared"]) == row["count_fingerprint"]
        assert env["compared"]["isolation"] == "bwrap" and "kernel" in env["informational"]
        detail = {d["hash"]: d for d in row["reference_memory_detail"]}
        assert set(detail) == {s["hash"] for s in row["solutions"]}
        assert all(d["tmu"] > 0 and d["memory_baseline_bytes"] > 0 for d in detail.values())
        # the limits the testcases stage judged the references by, which scoring applies to a
        # sample (docs/profiler.md, "Limits from the row"): this config's ceiling, the judge's
        limits = row["judge_limits"]
        assert limits["call_seconds"] == 5.0 and limits["test_set_seconds"] == 30.0
        assert limits["budget_seconds"] == 4.0 and 0 <= limits["cost_seconds"] <= 4.0
    # the training views (sft, dpo): TRL's column names, from the train split only
    train_slugs = {r["slug_name"] for r in tr}
    eval_slugs = {r["slug_name"] for r in ev}
    import yaml

    front = yaml.safe_load((out / "README.md").read_text().split("---")[1])
    configs = {c["config_name"]: c for c in front["configs"]}
    assert {"default", "sft", "dpo"} <= set(configs)
    for name, leading in (
        ("sft", ["prompt", "completion"]),
        ("dpo", ["prompt", "chosen", "rejected"]),
    ):
        (files,) = configs[name]["data_files"]
        assert files["split"] == "train"
        view = pq.read_table(out / files["path"])
        assert view.column_names[: len(leading)] == leading, (name, view.column_names)
        rows_ = view.to_pylist()
        assert rows_, f"the {name} view is empty"
        assert {r["slug_name"] for r in rows_} <= train_slugs
        assert not {r["slug_name"] for r in rows_} & eval_slugs
        assert all(r["prompt"] and r[leading[1]] for r in rows_)
    dpo = pq.read_table(out / configs["dpo"]["data_files"][0]["path"]).to_pylist()
    assert all(r["chosen_runtime"] < r["rejected_runtime"] and 0 < r["gap"] < 1 for r in dpo)
    # the in-place problem's expected answers are the arguments after the call
    zeroes = json.loads(by_slug["zeroes-to-end"]["test_cases"])
    for case in zeroes:
        nums = case["input"][0]
        assert case["expected"] == [x for x in nums if x != 0] + [0] * nums.count(0)
    card = (out / "README.md").read_text()
    assert (
        "multiple-valid-answers" in card and "paid-only" in card and "needs-llm-generator" in card
    )
    assert "Easy" in card and "icount" in card


def test_rerun_reuses_every_stage(built):
    out = built["out"]
    before = {p: p.stat().st_mtime_ns for p in (out / "parquet").glob("*.parquet")}
    result, states, _ = _run(built["flow"], built["config"])
    assert states and set(states.values()) == {"Cached"}, states
    assert result["funnel"] == built["result"]["funnel"]
    assert {p: p.stat().st_mtime_ns for p in (out / "parquet").glob("*.parquet")} == before


class _Touch:
    """Unpickling it creates a file: what a hostile cached result would do."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (open, (self.path, "w"))


def test_cached_results_are_plain_json_and_a_planted_pickle_never_runs(built, tmp_path, caplog):
    """docs/mercury-build.md, "Reruns": a build folder from elsewhere may hold a pickled Prefect
    result; a rerun deletes it unread, with one line naming it, and reuses the stage anyway."""
    from prefect._internal.result_records import ResultRecord, ResultRecordMetadata
    from prefect.serializers import PickleSerializer

    from quicksilver.orchestration.results import is_plain_record

    out = built["out"]
    records = sorted(p for p in (out / "stages").glob("*/.prefect-results/*") if p.is_file())
    assert {p.parts[-3] for p in records} >= {"load", "dedup", "profile", "publish"}
    for p in records:  # what the build wrote is JSON with the project's decoder
        assert is_plain_record(p.read_bytes()), p
        assert json.loads(p.read_bytes())["metadata"]["serializer"]["object_decoder"] == (
            "quicksilver.orchestration.results.decode_object"
        )
    marker = tmp_path / "unpickled"
    evil = ResultRecord(
        metadata=ResultRecordMetadata(serializer=PickleSerializer(), storage_key="x"),
        result=_Touch(marker),
    ).serialize()
    planted = sorted((out / "stages" / "load" / ".prefect-results").iterdir())
    assert planted
    for p in planted:  # the load stage's cache entry is a pickle now
        p.write_bytes(evil)
    with caplog.at_level("WARNING", logger="quicksilver.results"):
        result, states, _ = _run(built["flow"], built["config"])
    assert not marker.exists(), "a cached result was unpickled"
    said = [r.getMessage() for r in caplog.records if r.name == "quicksilver.results"]
    assert len(said) == len(planted) and all("not written as plain JSON" in m for m in said)
    assert {str(p) for p in planted} == {m.split(": ", 1)[0] for m in said}
    # the stage ran as a task again (its manifest says done: the runner reused its files)
    assert states["mercury-load"] == "Completed"
    assert {s for name, s in states.items() if name != "mercury-load"} == {"Cached"}, states
    assert result["funnel"] == built["result"]["funnel"]
    for p in (out / "stages" / "load" / ".prefect-results").iterdir():
        assert is_plain_record(p.read_bytes()), p


def test_interrupted_build_redoes_only_the_unfinished_shard(built):
    out = built["out"]
    profile_dir = out / "stages" / "profile"
    # a crash while shard-0001 was being profiled: its files and manifest never appeared
    for p in profile_dir.glob("shard-0001*"):
        p.unlink()
    (profile_dir / "_SUCCESS.shard-0001.json").unlink()
    for p in (out / "stages" / "splits", out / "stages" / "publish"):
        shutil.rmtree(p)
    result, states, _ = _run(built["flow"], built["config"])
    redone = sorted(name for name, state in states.items() if state != "Cached")
    assert redone == ["mercury-publish", "mercury-splits", "profile-shard-0001"], states
    assert {r["stage"]: r["tasks_out"] for r in result["funnel"]} == {
        r["stage"]: r["tasks_out"] for r in built["result"]["funnel"]
    }


def test_score_passes_each_tasks_own_reference_solutions(built, tmp_path):
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from quicksilver.cli import app

    out = built["out"]
    rows = pq.read_table(out / "parquet" / "eval.parquet").to_pylist()
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as fh:
        for row in rows:
            for sol in row["solutions"][:2]:
                fh.write(
                    json.dumps({"task_id": row["slug_name"], "completion": sol["solution"]}) + "\n"
                )
    report = tmp_path / "report.json"
    result = CliRunner().invoke(
        app,
        [
            "score",
            "--dataset",
            str(out),
            "--samples",
            str(samples),
            "--split",
            "eval",
            "--json",
            str(report),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["pass_at_1"] == pytest.approx(1.0)
    assert {t["task_id"] for t in data["tasks"]} == {r["slug_name"] for r in rows}
    assert all(t["pass_at_k"] == pytest.approx(1.0) for t in data["tasks"])
    assert not data["missing_tasks"] or set(data["missing_tasks"]).isdisjoint(
        {r["slug_name"] for r in rows}
    )
    # memory (docs/metrics.md, "Memory"): every sample passed and was measured by the host
    assert data["memory_tasks"] == data["nmu_tasks"] == data["ntmu_tasks"] == len(rows)
    assert 0.0 <= data["beyond_memory_at_1"] <= 1.0
    assert 0.5 < data["nmu"] < 2.0  # the references of one task, in the same interpreter
    assert 0.0 < data["ntmu"] < 50.0
    for task in data["tasks"]:
        assert task["reference_tmu"] > 0 and task["reference_tmu_samples"] >= 2
        assert all(p is not None for p in task["reference_peak_memory"])
        first, second = task["samples"]
        # sample 0 is the task's first reference, the canonical solution: the same code with
        # the same deterministic count gets the cached figure, so its ratios are exactly 1
        assert first["nmu"] == pytest.approx(1.0) and first["ntmu"] == pytest.approx(1.0)
        assert first["tmu"] == pytest.approx(task["reference_tmu"])
        assert second["tmu"] > 0 and second["ntmu"] == pytest.approx(
            second["tmu"] / task["reference_tmu"]
        )
        assert 0.0 <= second["beyond_memory"] <= 1.0
    assert "NTMU:" in result.output and "Beyond-memory@1:" in result.output
    # the build's counts are what scoring counts here: a seeded sample of tasks re-counted
    # agrees, and the other references are taken as shipped (nothing forged, same machine)
    shipped = data["shipped_counts"]
    assert shipped["reason"] is None and not shipped["mismatches"], shipped
    assert shipped["recounted"] >= 3 and shipped["used"] > 0
    assert shipped["used"] + shipped["recounted"] == shipped["offered"]
    assert "shipped counts:" in result.output


def test_every_published_solution_passes_in_the_mercury_evaluator(built):
    """The rows as the Mercury authors' evaluator runs them (tests/mercury_evaluator.py: their
    namespace, the rows' own convert_offline / evaluate_offline, the real lctk 0.0.6): every
    published solution passes, and a stub returning None fails every task."""
    import pyarrow.parquet as pq

    rows = [
        row
        for split in sorted((built["out"] / "parquet").glob("*.parquet"))
        for row in pq.read_table(split).to_pylist()
    ]
    results = judge_rows(rows)
    solutions = [r for r in results if not r.get("stub")]
    assert len(solutions) == sum(len(row["solutions"]) for row in rows) > 0
    failed = [
        (r["slug"], r["hash"], r["status"], r["error"])
        for r in solutions
        if r["status"] != "passed"
    ]
    assert failed == []
    stubs = {r["slug"]: r["status"] for r in results if r.get("stub")}
    assert set(stubs) == {row["slug_name"] for row in rows}
    assert "passed" not in stubs.values(), stubs
    # what made rows fail there before: a solution that used a name only the sandbox injects
    # (given its import, and saying so), and trees whose level order ends in 0
    by_slug = {row["slug_name"]: row for row in rows}
    added = {
        (row["slug_name"], line)
        for row in rows
        for p in row["solution_provenance"]
        for line in p["imports_added"]
    }
    assert ("has-repeated-value", "from collections import Counter") in added
    assert ("window-maxima", "from sortedcontainers import SortedList") in added
    for row in rows:
        code = {s["hash"]: s["solution"] for s in row["solutions"]}
        for p in row["solution_provenance"]:
            assert all(line in code[p["hash"]].splitlines() for line in p["imports_added"])
    tree_cases = json.loads(by_slug["mirror-tree"]["test_cases"])
    assert any(case["expected"][-1:] == [0] for case in tree_cases), tree_cases


def test_prefect_artifacts_show_the_funnel(built):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        ArtifactFilterKey,
    )

    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(
                    any_=["mercury-funnel", "mercury-summary", "mercury-progress"]
                ),
                flow_run_id=ArtifactFilterFlowRunId(any_=[built["run_id"]]),
            )
        )
    by_key = {a.key: a for a in artifacts}
    assert set(by_key) == {"mercury-funnel", "mercury-summary", "mercury-progress"}
    # the build's progress, as the UI shows it (quicksilver/orchestration/progress.py): done, every step counted
    progress = by_key["mercury-progress"]
    assert progress.type == "progress" and float(progress.data) == 100.0, progress
    assert progress.description and "steps · tasks" in progress.description, progress.description
    table = by_key["mercury-funnel"].data
    table = json.loads(table) if isinstance(table, str) else table
    stages = [row["stage"] for row in table]
    assert stages[:4] == ["load", "dedup", "filters", "generators"] and "profile" in stages
    summary = by_key["mercury-summary"].data
    assert "paid-only" in summary and str(built["out"]) in summary


def test_build_report_beside_the_dataset(built, tmp_path):
    """<out_dir>/report.html: the funnel's numbers, every published task; the same content as
    Prefect artifacts; every plot drawn in a headless browser (tests/test_report.py for that)."""
    import re

    import pyarrow.parquet as pq
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        ArtifactFilterKey,
    )

    out = built["out"]
    page = (out / "report.html").read_text()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)
    for row in built["result"]["funnel"]:
        i = cells.index(row["stage"])
        assert cells[i + 1 : i + 5] == [
            str(row[k]) for k in ("tasks_in", "tasks_out", "solutions_in", "solutions_out")
        ]
    slugs = {
        r["slug_name"]
        for split in ("train", "eval")
        for r in pq.read_table(out / "parquet" / f"{split}.parquet").to_pylist()
    }
    assert slugs and all(slug in cells for slug in slugs)
    assert "paid-only" in cells and "needs-llm-generator" in cells  # the drops by reason

    # no spread table: the icount build's counts are exact (the report says so in a sentence)
    keys = ["mercury-report", "mercury-tasks", "mercury-spread", "mercury-drops"]
    keys += ["mercury-dropped", "mercury-time", "mercury-slowest", "mercury-inputs"]
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(any_=keys),
                flow_run_id=ArtifactFilterFlowRunId(any_=[built["run_id"]]),
            )
        )
    by_key = {a.key: a for a in artifacts}
    assert set(by_key) == set(keys) - {"mercury-spread"}
    summary = by_key["mercury-report"].data
    assert "Every measurement is exact (meter icount" in summary
    assert str(out / "report.html") in summary and all(slug in summary for slug in slugs)
    tasks = by_key["mercury-tasks"].data
    tasks = json.loads(tasks) if isinstance(tasks, str) else tasks
    assert {row["task"] for row in tasks} == slugs

    def table(key: str) -> list[dict[str, Any]]:
        data = by_key[key].data
        return json.loads(data) if isinstance(data, str) else data

    # the report's other tables, as the UI shows them: dropped tasks by name, time, inputs
    dropped = json.dumps(table("mercury-dropped"))
    assert "needs-llm-generator" in dropped and "paid-only" in dropped
    assert {row["stage"] for row in table("mercury-time")} >= {"load", "profile", "publish"}
    assert {row["task"] for row in table("mercury-inputs")} == slugs
    assert table("mercury-slowest")


@requires_chromium
def test_build_report_renders_in_a_browser(built, tmp_path):
    from quicksilver.report import PLOT_IDS
    from tests.test_report import _rendered_dom, _RenderedPlots

    parser = _RenderedPlots(PLOT_IDS)
    parser.feed(_rendered_dom(built["out"] / "report.html", tmp_path / "profile"))
    # a Mercury report has no clusters plot, and an icount one no spread plot (all zeros)
    assert parser.drawn == {
        "plot-funnel",
        "plot-drops",
        "plot-costs",
        "plot-time-stages",
        "plot-time-tasks",
    }
