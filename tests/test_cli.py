"""End-to-end tests of the ``quicksilver`` command (run, score, doctor), run as subprocesses.

The tasks and samples are the hand-made fixtures in tests/fixtures/tasks (see its README) and the
Mercury rows in tests/fixtures/records. Every run uses a temporary reference cache and few
measurement rounds, so the file takes well under a minute.
"""

from __future__ import annotations

import ctypes
import json
import os
import platform
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from quicksilver.lifecycle import descendants
from quicksilver.machine import machine_info
from quicksilver.rows import TaskRow, load_json
from quicksilver.sandbox import cgroup
from tests.conftest import requires_bwrap, requires_chromium
from tests.private_mounts import fill, requires_private_mounts, run_with_mounts
from tests.test_build_lifecycle import _cmdline

HERE = Path(__file__).parent
TASKS = HERE / "fixtures" / "tasks"
TWO_SUM = TASKS / "two_sum.json"
SAMPLES_JSONL = TASKS / "samples.jsonl"
SAMPLES_MERCURY = TASKS / "samples_mercury.json"
MERCURY_ROWS = HERE / "fixtures" / "records" / "mercury_rows.json"
QUICKSILVER = Path(sys.executable).with_name("quicksilver")
ROUNDS = ["--meter", "cpu", "--max-rounds", "6"]
SCORE_LIMITS = ["--max-rounds", "6", "--budget", "2"]  # the default meter: icount


def cli(*args: Any, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed ``quicksilver`` script; wide columns so messages are not wrapped."""
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}
    return subprocess.run(
        [str(QUICKSILVER), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def flat(text: str) -> str:
    """Whitespace collapsed, so a message rich wrapped over lines still matches."""
    return " ".join(text.split())


def one_json_object(stdout: str) -> dict[str, Any]:
    """Parse the WHOLE of stdout: json.loads fails on anything around or after one object."""
    data = json.loads(stdout)
    assert isinstance(data, dict)
    assert stdout.endswith("}\n") and stdout.count("\n") == 1
    return data


# --- the fixture itself ---------------------------------------------------------------------


def test_two_sum_fixture_is_sound():
    """Expected outputs are right and unique, and every reference solution agrees with them."""
    loaded = load_json(TWO_SUM)
    assert loaded.rejects == []
    (record,) = loaded.records
    assert (record.id, record.slug_name, record.difficulty) == ("1", "two-sum", "Easy")
    assert record.entry_point == "twoSum" and record.task_kind == "class"
    assert "def twoSum(self, nums: List[int], target: int) -> List[int]:" in record.prompt
    assert record.convert_offline == record.evaluate_offline == ""  # the defaults
    cases = record.cases()
    assert len(cases) == 4
    assert max(len(c.inputs[0]) for c in cases) == 2000
    for case in cases:
        nums, target = case.inputs
        positions: dict[int, list[int]] = {}
        for i, x in enumerate(nums):
            positions.setdefault(x, []).append(i)
        pairs = {
            (min(i, j), max(i, j))
            for i, x in enumerate(nums)
            for j in positions.get(target - x, [])
            if i != j
        }
        assert pairs == {tuple(case.expected)}, "the answer must exist and be unique"
    assert len(record.solutions) == 3
    for sol in record.solutions:
        namespace: dict[str, Any] = {"List": list}  # Mercury's prelude injects typing.List
        exec(sol.solution, namespace)
        for case in cases:
            got = namespace["Solution"]().twoSum(list(case.inputs[0]), case.inputs[1])
            assert got == case.expected


# --- quicksilver run ------------------------------------------------------------------------


def run_json(solution: str, *extra: Any) -> tuple[subprocess.CompletedProcess[str], dict]:
    proc = cli("run", "--task", TWO_SUM, "--solution", TASKS / solution, "--json", *extra)
    return proc, one_json_object(proc.stdout)


@pytest.fixture(scope="module")
def fast_run() -> tuple[subprocess.CompletedProcess[str], dict]:
    return run_json("two_sum_fast.py", *ROUNDS)


@requires_bwrap
def test_run_fast_solution_passes(fast_run):
    proc, data = fast_run
    assert proc.returncode == 0, proc.stderr
    assert data["status"] == "passed"
    assert data["task_id"] == "two-sum"
    assert (data["meter"], data["unit"], data["isolation"]) == ("cpu", "s", "bwrap")
    assert data["error"] is None and data["failed_case"] is None
    assert isinstance(data["runtime"], float) and data["runtime"] > 0
    low, high = data["runtime_ci"]
    assert 0 < low <= data["runtime"] <= high
    assert [c["index"] for c in data["cases"]] == [0, 1, 2, 3]
    for case in data["cases"]:
        assert case["passed"] is True
        assert 1 <= case["rounds"] <= 6
        # microsecond calls: each pass's call is net of an empty call's cost, so a case's
        # median may be 0 within the cpu meter's noise; the ordering always holds
        assert 0 <= case["ci_low"] <= case["median"] <= case["ci_high"]
        assert "samples" not in case  # per-round samples are left out of the CLI's JSON
    # runtime = the median over passes of (loading + every call + any charge)
    assert len(data["round_costs"]) == data["rounds"] >= 1
    assert data["runtime"] > 0 and data["load_cost"] >= 0  # loading beyond a minimal solution
    # the 2,000-number case dominates the calls (the first call of a pass runs in a fresh
    # process, cold, which the cpu meter sees as some tens of microseconds)
    big = data["cases"][3]["median"]
    assert all(big > 3 * c["median"] for c in data["cases"][:3])


@requires_bwrap
def test_run_slow_solution_passes_and_costs_more(fast_run):
    proc, slow = run_json("two_sum_slow.py", *ROUNDS)
    assert proc.returncode == 0, proc.stderr
    assert slow["status"] == "passed"
    # ~2M pair checks against one pass over 2,000 numbers: hundreds of times apart
    assert slow["runtime"] > 20 * fast_run[1]["runtime"]


@requires_bwrap
def test_run_wrong_answer_names_the_case():
    proc, data = run_json("two_sum_wrong.py", *ROUNDS)
    assert proc.returncode == 0  # a verdict is a result, not a failure of the command
    assert data["status"] == "failed"
    assert data["runtime"] is None and data["runtime_ci"] is None
    assert data["failed_case"] == 1  # [0, 1] happens to be right for case 0
    assert "case 1" in data["error"] and "wrong answer" in data["error"]
    assert "got [0, 1], expected [1, 2]" in data["error"]
    assert data["cases"][0]["passed"] is True and data["cases"][1]["passed"] is False


@requires_bwrap
def test_run_exception_is_an_error_with_its_text():
    proc, data = run_json("two_sum_raises.py", *ROUNDS)
    assert proc.returncode == 0
    assert data["status"] == "error"
    assert data["runtime"] is None
    assert data["failed_case"] == 0
    assert "ValueError: quicksilver-test: no pair here" in data["error"]


@requires_bwrap
def test_run_infinite_loop_times_out_promptly():
    start = time.monotonic()
    proc, data = run_json("two_sum_loop.py", "--timeout", "1", *ROUNDS)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0
    assert data["status"] == "timeout"
    assert data["runtime"] is None
    assert data["failed_case"] == 0
    assert "CPU time limit" in data["error"]
    assert elapsed < 15, f"a 1 s CPU limit took {elapsed:.1f} s of wall time"


@requires_bwrap
def test_run_without_json_prints_a_table():
    proc = cli("run", "--task", TWO_SUM, "--solution", TASKS / "two_sum_fast.py", *ROUNDS)
    assert proc.returncode == 0, proc.stderr
    out = flat(proc.stdout)
    assert "two-sum: PASSED" in out
    assert "meter: cpu" in out and "isolation: bwrap" in out


def _task_row() -> dict[str, Any]:
    return json.loads(TWO_SUM.read_text())


@pytest.mark.parametrize(
    ("make", "complaint"),
    [
        pytest.param(
            lambda: TWO_SUM.read_text()[:300], "invalid JSON at line", id="truncated-file"
        ),
        pytest.param(
            lambda: json.dumps({**_task_row(), "test_cases": '[{"input": [[1, 2], 3]'}),
            "field 'test_cases' is not valid JSON",
            id="test-cases-not-json",
        ),
        pytest.param(
            lambda: json.dumps({k: v for k, v in _task_row().items() if k != "entry_point"}),
            "field 'entry_point': Field required",
            id="no-entry-point",
        ),
        pytest.param(
            lambda: json.dumps({**_task_row(), "test_cases": '[{"input": [[1, 2], 3]}]'}),
            "'test_cases'[0] has no 'expected' key",
            id="case-without-expected",
        ),
        pytest.param(lambda: "[]", "no rows", id="empty-list"),
    ],
)
def test_run_malformed_task_is_a_clear_error(tmp_path, make, complaint):
    task = tmp_path / "task.json"
    task.write_text(make())
    proc = cli("run", "--task", task, "--solution", TASKS / "two_sum_fast.py", "--json", *ROUNDS)
    assert proc.returncode == 2
    assert proc.stdout == ""  # no half-made JSON
    err = flat(proc.stderr)
    assert "error:" in err and "no usable task record" in err
    assert complaint in err
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", ["missing.json", "task.txt"])
def test_run_missing_or_unsupported_task_file_is_a_clear_error(tmp_path, name):
    if name.endswith(".txt"):
        (tmp_path / name).write_text(TWO_SUM.read_text())
    proc = cli("run", "--task", tmp_path / name, "--solution", TASKS / "two_sum_fast.py", "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "error:" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- quicksilver score ----------------------------------------------------------------------


def _dataset_rows() -> dict[str, dict[str, Any]]:
    """two-sum plus the three Mercury fixture rows, as plain rows (records' to_row)."""
    records = load_json(TWO_SUM).records + load_json(MERCURY_ROWS).records
    return {r.task_key: r.to_row() for r in records}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> dict[str, Path]:
    """A Parquet file of 4 tasks, and a folder of two Parquet splits (eval, train)."""
    root = tmp_path_factory.mktemp("dataset")
    rows = _dataset_rows()
    assert list(rows) == [
        "two-sum",
        "summary-ranges",
        "invert-binary-tree",
        "top-k-frequent-elements",
    ]
    single = root / "mercury.parquet"
    pd.DataFrame(list(rows.values())).to_parquet(single)
    splits = root / "splits"
    splits.mkdir()
    pd.DataFrame([rows["two-sum"], rows["summary-ranges"]]).to_parquet(
        splits / "eval-00000-of-00001.parquet"
    )
    pd.DataFrame([rows["invert-binary-tree"], rows["top-k-frequent-elements"]]).to_parquet(
        splits / "train-00000-of-00001.parquet"
    )
    # the rows survive the Parquet round trip
    back = pd.read_parquet(single).to_dict("records")
    assert [TaskRow.from_row(r).task_key for r in back] == list(rows)
    return {"file": single, "splits": splits, "root": root}


def run_score(
    dataset_path: Path, samples: Path, out: Path, cache: Path, *extra: Any
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    proc = cli(
        "score",
        "--dataset",
        dataset_path,
        "--samples",
        samples,
        "--json",
        out,
        "--cache-dir",
        cache,
        *SCORE_LIMITS,
        *extra,
    )
    assert proc.returncode == 0, proc.stderr
    return proc, json.loads(out.read_text())


@pytest.fixture(scope="module")
def scored(dataset) -> dict[str, Any]:
    """The JSONL samples scored once against the Parquet file, with a fresh reference cache (and
    the HTML report)."""
    cache = dataset["root"] / "cache"
    html = dataset["root"] / "r1.html"
    proc, report = run_score(
        dataset["file"], SAMPLES_JSONL, dataset["root"] / "r1.json", cache, "--report", html
    )
    return {"proc": proc, "report": report, "cache": cache, "html": html}


def _by_task(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["task_id"]: t for t in report["tasks"]}


@requires_bwrap
def test_score_report(scored):
    report = scored["report"]
    tasks = _by_task(report)
    # two-sum and summary-ranges samples are right, top-k's is wrong; invert-binary-tree has
    # no sample and is not scored
    assert list(tasks) == ["two-sum", "summary-ranges", "top-k-frequent-elements"]
    assert report["n_tasks"] == 3 and report["n_unscorable"] == 0
    # icount: one exact pass, nothing scored from an unconverged profile
    assert report["unconverged_samples"] == report["unconverged_references"] == 0
    assert report["unconverged"] == []
    assert report["pass_at_1"] == pytest.approx(2 / 3)
    assert report["pass_at_k"] == report["pass_at_1"]
    assert (report["meter"], report["unit"], report["isolation"]) == (
        "icount",
        "instructions",
        "bwrap",
    )
    assert report["missing_tasks"] == [] and report["sample_rejects"] == []

    for task in tasks.values():
        assert task["n"] == 1
        assert task["unscorable"] is False
        assert 0.0 <= task["beyond"] <= 1.0
        assert all(r is not None and r > 0 for r in task["reference_runtimes"])
        assert task["reference_errors"] == []
        (sample,) = task["samples"]
        assert sample["beyond"] == task["beyond"]
        if sample["status"] == "passed":
            low, high = sample["runtime_ci"]  # the sample's CI95
            assert 0 < low <= sample["runtime"] <= high
            assert 0.0 <= sample["percentile"] <= 100.0

    two_sum = tasks["two-sum"]
    assert (two_sum["c"], two_sum["pass_at_k"]) == (1, 1.0)
    slow_ref, sort_ref, hash_ref = two_sum["reference_runtimes"]
    assert slow_ref > 20 * max(sort_ref, hash_ref)  # the O(n^2) reference is re-profiled
    # the sample is the hash-map solution: at the fast end of the references
    assert two_sum["beyond"] > 0.9

    assert tasks["summary-ranges"]["c"] == 1
    assert tasks["summary-ranges"]["difficulty"] == "Easy"

    topk = tasks["top-k-frequent-elements"]
    assert (topk["c"], topk["pass_at_k"], topk["beyond"]) == (0, 0.0, 0.0)
    assert topk["difficulty"] == "Medium"
    (failed,) = topk["samples"]
    assert failed["status"] == "failed"
    assert failed["runtime"] is None and failed["runtime_ci"] is None
    assert failed["beyond"] == 0.0
    assert "wrong answer" in failed["error"]

    beyonds = [t["beyond"] for t in tasks.values()]
    assert report["beyond_at_1"] == pytest.approx(sum(beyonds) / 3)
    assert 0.0 <= report["beyond_at_1"] <= 1.0
    assert report["gap"] == pytest.approx(report["pass_at_1"] - report["beyond_at_1"])

    by_diff = report["by_difficulty"]
    assert list(by_diff) == ["Easy", "Medium"]
    assert by_diff["Easy"]["n_tasks"] == 2 and by_diff["Easy"]["pass_at_k"] == 1.0
    easy_beyond = (two_sum["beyond"] + tasks["summary-ranges"]["beyond"]) / 2
    assert by_diff["Easy"]["beyond_at_k"] == pytest.approx(easy_beyond)
    assert by_diff["Medium"] == {
        "pass_at_k": 0.0,
        "beyond_at_k": 0.0,
        "gap": 0.0,
        "n_tasks": 1,
        "n_unscorable": 0,
    }
    # memory (docs/metrics.md, "Memory"): the two passing samples have NMU and NTMU against
    # their task's first reference, the failed one Beyond-memory 0
    assert report["memory_tasks"] == 3 and 0.0 <= report["beyond_memory_at_1"] <= 1.0
    assert report["nmu_tasks"] == report["ntmu_tasks"] == 2
    assert report["tmu_unit"] == "bytes*instructions"
    for name in ("two-sum", "summary-ranges"):
        task = tasks[name]
        (sample,) = task["samples"]
        assert task["reference_tmu"] > 0 and task["reference_tmu_samples"] >= 2
        assert sample["tmu"] > 0 and sample["tmu_samples"] >= 2
        assert sample["ntmu"] == pytest.approx(sample["tmu"] / task["reference_tmu"])
        assert task["ntmu"] == sample["ntmu"] and task["nmu"] == sample["nmu"]
        assert 0.5 < sample["nmu"] < 2  # the same interpreter holding small inputs
    # two-sum's first reference is the O(n^2) one: the hash-map sample holds about the same
    # memory for a small fraction of its time (its runtime is 20 times smaller, at least)
    assert tasks["two-sum"]["ntmu"] < 0.05 < tasks["summary-ranges"]["ntmu"]
    assert report["ntmu"] == pytest.approx(
        (tasks["two-sum"]["ntmu"] + tasks["summary-ranges"]["ntmu"]) / 2
    )
    assert topk["samples"][0]["tmu"] is None and topk["samples"][0]["ntmu"] is None
    assert topk["beyond_memory"] == 0.0 and topk["ntmu"] is None
    # the summary panel on stdout
    out = flat(scored["proc"].stdout)
    assert "Pass@1: 0.667" in out
    assert f"NTMU: {report['ntmu']:.3f} (2 tasks)" in out and "NMU: " in out
    assert f"Beyond-memory@1: {report['beyond_memory_at_1']:.3f} (3 tasks)" in out


@requires_bwrap
def test_score_html_report_places_each_sample(scored):
    """--report: the scored tasks with their figures, and the samples among the references."""
    import re

    from quicksilver.report import SCORE_PLOT_IDS

    page = scored["html"].read_text()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)
    report = scored["report"]
    for task in report["tasks"]:
        i = cells.index(task["task_id"])
        assert cells[i + 4] == f"{task['pass_at_k']:.3g}"  # pass@k
        assert cells[i + 5] == f"{task['beyond']:.3g}"  # Beyond
    assert "invert-binary-tree" not in page  # no sample: not scored
    assert "pass_at_1" in cells and f"{report['pass_at_1']:.4g}" in cells
    for div in SCORE_PLOT_IDS:
        assert f'id="{div}"' in page
    assert "HTML report written to" in scored["proc"].stderr


@requires_bwrap
@requires_chromium
def test_score_html_report_renders(scored, tmp_path):
    from quicksilver.report import SCORE_PLOT_IDS
    from tests.test_report import _rendered_dom, _RenderedPlots

    parser = _RenderedPlots(SCORE_PLOT_IDS)
    parser.feed(_rendered_dom(scored["html"], tmp_path / "profile"))
    assert parser.drawn == set(SCORE_PLOT_IDS)


def test_score_unwritable_html_report_is_found_before_any_work(dataset, tmp_path):
    out = tmp_path / "no-such-folder" / "report.html"
    cache = tmp_path / "cache"
    proc = cli(
        "score",
        "--dataset",
        dataset["file"],
        "--samples",
        SAMPLES_JSONL,
        "--report",
        out,
        "--cache-dir",
        cache,
        *SCORE_LIMITS,
    )
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == (
        f"error: {out}: cannot write: the folder {out.parent} does not exist"
    )
    assert not cache.exists(), "no reference was profiled"


def _cache_files(cache: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in sorted(cache.rglob("*.json"))}


@requires_bwrap
def test_score_reuses_the_reference_cache_and_recollect_refreshes_it(scored, dataset):
    cache = scored["cache"]
    first = _cache_files(cache)
    # one file per reference solution of the three scored tasks (3 + 2 + 2) and per sample (3):
    # counts do not depend on when they were taken, so samples are recorded too
    assert len(first) == 10
    assert all(p.parent.name == "icount" for p in first)  # <dir>/<machine>/<meter>/<key>.json
    entries = [json.loads(path.read_text()) for path in first]
    assert all(e["meter"] == "icount" for e in entries)
    assert Counter(e["status"] for e in entries) == {"passed": 9, "failed": 1}

    _, second = run_score(dataset["file"], SAMPLES_JSONL, dataset["root"] / "r2.json", cache)
    assert _cache_files(cache) == first  # same files, none rewritten
    # the reference runtimes were read back from the cache, not measured again
    for task in second["tasks"]:
        assert (
            task["reference_runtimes"]
            == _by_task(scored["report"])[task["task_id"]]["reference_runtimes"]
        )
    assert second["pass_at_1"] == pytest.approx(2 / 3)

    _, third = run_score(
        dataset["file"], SAMPLES_JSONL, dataset["root"] / "r3.json", cache, "--recollect"
    )
    after = _cache_files(cache)
    assert set(after) == set(first)
    assert all(after[p] > first[p] for p in first), "--recollect must re-profile every reference"
    assert third["pass_at_1"] == pytest.approx(2 / 3)


@requires_bwrap
def test_score_mercury_samples_file_gives_the_same_result(scored, dataset):
    _, report = run_score(
        dataset["file"], SAMPLES_MERCURY, dataset["root"] / "merc.json", scored["cache"]
    )
    assert report["pass_at_1"] == pytest.approx(scored["report"]["pass_at_1"])
    assert report["sample_rejects"] == [] and report["missing_tasks"] == []
    statuses = {t["task_id"]: [s["status"] for s in t["samples"]] for t in report["tasks"]}
    assert statuses == {
        "two-sum": ["passed"],
        "summary-ranges": ["passed"],
        "top-k-frequent-elements": ["failed"],
    }


def _jsonl_samples() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in SAMPLES_JSONL.read_text().splitlines() if line.strip()]
    return [
        (str(r.get("task_id") or r["slug_name"]), r.get("completion") or r["solution"])
        for r in rows
    ]


@requires_bwrap
def test_score_samples_as_evaluation_harnesses_write_them(scored, dataset):
    """bigcode-evaluation-harness's generations.json (a list of programs per task, in the
    dataset's order, no names) and an evalplus folder (<task>/<n>.py) whose files hold only the
    method's body, completed from the task's prompt when asked: the same result as the JSONL."""
    samples = _jsonl_samples()
    order = ["two-sum", "228", "invert-binary-tree", "top-k-frequent-elements"]  # the file's rows
    generations = [[code for task, code in samples if task == name] for name in order]
    assert [len(g) for g in generations] == [1, 1, 0, 1]
    bigcode = dataset["root"] / "generations.json"
    bigcode.write_text(json.dumps(generations))
    folder = dataset["root"] / "evalplus"
    for task, code in samples:
        body = "\n".join(code.split("\n")[2:])  # no class line, no def line: the body only
        assert "class Solution" not in body and "def " not in body.split("\n")[0]
        (folder / task).mkdir(parents=True)
        (folder / task / "0.py").write_text(body)
    expected = {
        "two-sum": ["passed"],
        "summary-ranges": ["passed"],
        "top-k-frequent-elements": ["failed"],
    }
    runs = [
        (bigcode, "bigcode.json", [], expected),
        (folder, "evalplus.json", ["--complete-from-prompt"], expected),
        # without the flag the bodies are judged as they are, as the authors' evaluator does,
        # and counted
        (folder, "bodies.json", [], {t: ["error"] for t in expected}),
    ]
    for path, name, flags, statuses_wanted in runs:
        _, report = run_score(
            dataset["file"], path, dataset["root"] / name, scored["cache"], *flags
        )
        assert report["sample_rejects"] == [] and report["missing_tasks"] == [], name
        statuses = {t["task_id"]: [s["status"] for s in t["samples"]] for t in report["tasks"]}
        assert statuses == statuses_wanted, name
        bodies = report.get("method_bodies", {})
        if path == folder:
            assert bodies["count"] == 3 and bodies["completed"] is bool(flags), name
        else:
            assert bodies == {}, name
        if statuses_wanted == expected:
            assert report["pass_at_1"] == pytest.approx(scored["report"]["pass_at_1"])


@requires_bwrap
def test_score_mercury_samples_pretty_printed_without_indent(scored, dataset):
    """A Mercury samples file from json.dump(..., indent=0) has lines starting with '{'.

    Regression: samples.py at 3f295fb read any '{'-document containing '\\n{' as JSONL.
    """
    samples = dataset["root"] / "samples_indent0.json"
    samples.write_text(json.dumps(json.loads(SAMPLES_MERCURY.read_text()), indent=0))
    _, report = run_score(dataset["file"], samples, dataset["root"] / "merc0.json", scored["cache"])
    assert report["pass_at_1"] == pytest.approx(2 / 3)


@requires_bwrap
def test_score_folder_of_parquet_splits(scored, dataset):
    _, everything = run_score(
        dataset["splits"], SAMPLES_JSONL, dataset["root"] / "all.json", scored["cache"]
    )
    assert everything["n_tasks"] == 3
    assert everything["pass_at_1"] == pytest.approx(2 / 3)
    assert everything["missing_tasks"] == []

    _, eval_only = run_score(
        dataset["splits"],
        SAMPLES_JSONL,
        dataset["root"] / "eval.json",
        scored["cache"],
        "--split",
        "eval",
    )
    assert [t["task_id"] for t in eval_only["tasks"]] == ["two-sum", "summary-ranges"]
    assert eval_only["pass_at_1"] == 1.0
    assert eval_only["missing_tasks"] == ["top-k-frequent-elements"]


def test_score_with_no_usable_sample_is_a_clear_error(dataset, tmp_path):
    samples = tmp_path / "bad.jsonl"
    samples.write_text('{"task_id": "two-sum"}\nnot json\n')
    proc = cli(
        "score",
        "--dataset",
        dataset["file"],
        "--samples",
        samples,
        "--cache-dir",
        tmp_path / "cache",
        *SCORE_LIMITS,
    )
    assert proc.returncode == 2
    assert "no usable samples" in flat(proc.stderr)


# --- nothing asked for is lost at the last step ---------------------------------------------


def one_error_line(stderr: str) -> str:
    """The command's error: exactly one line starting with "error:", and no traceback."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.mark.parametrize("where", ["missing-folder", "a-folder"])
def test_score_unwritable_report_path_is_found_before_any_work(dataset, tmp_path, where):
    out = tmp_path / "no-such-folder" / "report.json" if where == "missing-folder" else tmp_path
    cache = tmp_path / "cache"
    proc = cli(
        "score",
        "--dataset",
        dataset["file"],
        "--samples",
        SAMPLES_JSONL,
        "--json",
        out,
        "--cache-dir",
        cache,
        *SCORE_LIMITS,
    )
    assert proc.returncode == 2
    line = one_error_line(proc.stderr)
    if where == "missing-folder":
        assert line == (f"error: {out}: cannot write: the folder {out.parent} does not exist")
    else:
        assert line == f"error: {out}: cannot write: is a folder; give a file name"
    assert not cache.exists(), "no reference was profiled"
    assert "Pass@" not in proc.stdout


@requires_private_mounts
def test_score_read_only_report_folder_is_found_before_any_work(dataset, tmp_path):
    disk = tmp_path / "ro"
    cache = tmp_path / "cache"
    out = disk / "report.json"
    proc = run_with_mounts(
        [
            QUICKSILVER,
            "score",
            "--dataset",
            dataset["file"],
            "--samples",
            SAMPLES_JSONL,
            "--json",
            out,
            "--cache-dir",
            cache,
            *SCORE_LIMITS,
        ],
        {disk: "ro,size=64k"},
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        timeout=120,
    )
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == f"error: {out}: cannot write: Read-only file system"
    assert not cache.exists(), "no reference was profiled"


@requires_bwrap  # scoring runs the samples in the sandbox
@requires_private_mounts
def test_score_full_disk_keeps_the_earlier_report(scored, dataset, tmp_path):
    disk = tmp_path / "disk"
    out = disk / "report.json"
    earlier = json.dumps({"pass_at_1": 0.5, "earlier": True})
    proc = run_with_mounts(
        [
            QUICKSILVER,
            "score",
            "--dataset",
            dataset["file"],
            "--samples",
            SAMPLES_JSONL,
            "--json",
            out,
            "--cache-dir",
            scored["cache"],
            *SCORE_LIMITS,
        ],
        {disk: "size=64k"},
        # the earlier report, then the disk filled to the last byte; and what is there after
        setup=f"printf '%s' '{earlier}' > {out}\n{fill(disk)}",
        after=f"cat {out} > {tmp_path / 'after.json'}; ls -A {disk} > {tmp_path / 'names.txt'}",
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert one_error_line(proc.stderr) == (
        f"error: {out}: cannot write: No space left on device; the report was not written (an "
        "earlier report.json is left as it was)"
    )
    assert "Pass@1: 0.667" in flat(proc.stdout)  # the scoring itself was done and shown
    assert (tmp_path / "after.json").read_text() == earlier
    assert (tmp_path / "names.txt").read_text().split() == [".filler", "report.json"]


def test_score_truncated_parquet_is_named_as_the_cause(dataset, tmp_path):
    good = dataset["file"].read_bytes()
    cut = tmp_path / "mercury.parquet"
    cut.write_bytes(good[: len(good) // 2])
    proc = cli("score", "--dataset", cut, "--samples", SAMPLES_JSONL, *SCORE_LIMITS)
    assert proc.returncode == 2
    line = one_error_line(proc.stderr)
    assert line.startswith(f"error: {cut}: not a readable Parquet file (truncated?): ")
    assert "no sample matches" not in proc.stderr


@requires_bwrap  # scoring runs the samples in the sandbox
def test_score_truncated_split_is_named_when_no_sample_matches_the_rest(dataset, tmp_path):
    splits = tmp_path / "splits"
    splits.mkdir()
    for p in dataset["splits"].iterdir():
        data = p.read_bytes()
        (splits / p.name).write_bytes(data[:100] if p.name.startswith("eval") else data)
    samples = tmp_path / "eval_only.jsonl"  # samples of the eval tasks only
    samples.write_text(
        "".join(
            line + "\n"
            for line in SAMPLES_JSONL.read_text().splitlines()
            if json.loads(line).get("task_id") in ("two-sum", "228")
        )
    )
    proc = cli("score", "--dataset", splits, "--samples", samples, *SCORE_LIMITS)
    assert proc.returncode == 2
    line = one_error_line(proc.stderr)
    cut = splits / "eval-00000-of-00001.parquet"
    assert line.startswith(
        f"error: no sample matches a task of the dataset ({cut}: not a readable Parquet file "
        "(truncated?): "
    )


def test_compare_unwritable_output_is_found_before_reading_the_reports(tmp_path):
    out = tmp_path / "missing" / "cmp.json"
    proc = cli("compare", tmp_path / "a.json", tmp_path / "b.json", "--json", out)
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == (
        f"error: {out}: cannot write: the folder {out.parent} does not exist"
    )


# --- quicksilver doctor ---------------------------------------------------------------------


def perf_event_open_works() -> bool:
    """Open a user-space instruction counter on this process, independently of quicksilver."""
    numbers = {"x86_64": 298, "aarch64": 241}
    nr = numbers.get(platform.machine())
    if nr is None:
        pytest.skip(f"no perf_event_open syscall number known for {platform.machine()}")
    exclude_kernel_and_hv = (1 << 5) | (1 << 6)
    # perf_event_attr (PERF_ATTR_SIZE_VER0): type=HARDWARE, size, config=INSTRUCTIONS, ...
    attr = struct.pack("<IIQQQQQIIQ", 0, 64, 1, 0, 0, 0, exclude_kernel_and_hv, 0, 0, 0)
    buf = ctypes.create_string_buffer(attr, 64)
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(
        ctypes.c_long(nr),
        buf,
        ctypes.c_int(0),
        ctypes.c_int(-1),
        ctypes.c_int(-1),
        ctypes.c_ulong(0),
    )
    if fd >= 0:
        os.close(fd)
        return True
    return False


@requires_bwrap
def test_doctor_json():
    proc = cli("doctor", "--json")
    assert proc.returncode == 0, proc.stderr
    report = one_json_object(proc.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert all(set(c) == {"name", "ok", "detail"} for c in report["checks"])
    assert checks["bubblewrap"]["ok"] is True
    assert "bubblewrap" in checks["bubblewrap"]["detail"]
    net = checks["network (loopback included)"]
    assert net["ok"] is True, net["detail"]
    assert "127.0.0.1" in net["detail"]
    for name in ("seccomp filter", "read-only /proc", "hidden packages", "no ctypes"):
        assert checks[name]["ok"] is True, (name, checks[name]["detail"])
    assert "unshare(CLONE_NEWUSER) -> EPERM" in checks["seccomp filter"]["detail"]
    assert "Read-only file system" in checks["read-only /proc"]["detail"]
    assert "No module named '_ctypes'" in checks["no ctypes"]["detail"]
    assert checks["meter cpu"]["ok"] is True
    instructions = checks["meter instructions"]
    works = perf_event_open_works()
    assert instructions["ok"] is works
    if not works:
        detail = instructions["detail"]
        assert any(why in detail for why in ("PMU", "perf_event_paranoid", "ENOSYS")), detail
    # the memory source profiles get here, tried on pipe buffers held by a process
    memory = checks["memory source"]
    source = cgroup.memory_source()
    assert memory["detail"].startswith(source + ":"), memory["detail"]
    assert memory["ok"] is (source != cgroup.MEMORY_SOURCE_RSS), memory["detail"]
    assert report["machine"]["machine_id"]
    assert Counter(c["name"] for c in report["checks"]).most_common(1)[0][1] == 1


def test_version_is_one_line() -> None:
    from typer.testing import CliRunner

    from quicksilver import __version__
    from quicksilver.cli import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"quicksilver {__version__}\n"


@requires_bwrap
def test_score_stopped_by_sigterm_says_so_in_one_line_and_writes_no_report(dataset, tmp_path):
    report = tmp_path / "report.json"
    cache = tmp_path / "cache"  # cold: the references are being counted when the signal comes
    proc = subprocess.Popen(
        [
            str(QUICKSILVER),
            "score",
            "--dataset",
            str(dataset["file"]),
            "--samples",
            str(SAMPLES_JSONL),
            "--json",
            str(report),
            "--cache-dir",
            str(cache),
            *SCORE_LIMITS,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    # wait until a sandbox runs under it, then stop it
    deadline = time.monotonic() + 120
    while not any("bwrap" in _cmdline(p) for p in descendants(proc.pid)):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "score never started a sandbox"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: stopped by SIGTERM: no report written; the references measured so far are kept "
        f"in the cache ({cache}/{machine_info()['machine_id']}): run the same command again to "
        "go on"
    ], stderr
    assert "Traceback" not in stderr and not report.exists()
