"""The funnel counts what a dropped task takes with it (issue 13, item 8).

Small stage folders are written the way the build writes them (real stage functions, their
rejects and manifests); the funnel read back from them must count, per reason, the tasks dropped
and the solutions lost with them, in the table printed at the end of a build, in the Prefect
artifacts and in the dataset cards.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from quicksilver.builds import MERCURY
from quicksilver.config import SelectionSection, load_build_config
from quicksilver.funnel import (
    drop_text,
    drop_totals,
    drops_summary,
    funnel_markdown,
    funnel_rows,
    print_funnel,
)
from quicksilver.pipeline.files import StageDir, write_jsonl
from quicksilver.pipeline.records import Solution, Task, TaskRecord
from quicksilver.pipeline.runner import Runner
from quicksilver.pipeline.stage import Context, StageCounts
from tests.stagekit import filter_stage, load_stage, select_stage, uniqueness_shard
from tests.test_stages import _record, _snapshot, _sols, _task


def _uniqueness_inputs(slugs_answers: dict[str, list[list[Any]]]) -> tuple[list, list, list]:
    """Tasks, solutions and testcases records for uniqueness_shard: per slug, the answers of
    each solution on two inputs."""
    tasks, sols, records = [], [], []
    for slug, answers in slugs_answers.items():
        tasks.append(_task(slug))
        sols += _sols(len(answers), slug)
        records.append(_record(answers, [[1], [2]], slug=slug))
    return tasks, sols, records


# 'split' has no answer held by a majority or a clear plurality on either input: dropped
# (ambiguous-output) with its 4 solutions; 'wrong' keeps 3 and loses one wrong answer; 'ok' keeps
# all 3
SHARDS = {
    "shard-0000": {"ok": [[1, 2]] * 3, "split": [[1, 2], [2, 3], [3, 2], [4, 3]]},
    "shard-0001": {"wrong": [[1, 2], [1, 2], [1, 2], [9, 9]]},
}


def _finish(sd: StageDir, out: dict[str, Any], part: str = "") -> None:
    name = f"{part}.rejects.jsonl" if part else "rejects.jsonl"
    sd.path.mkdir(parents=True, exist_ok=True)
    write_jsonl(sd.file(name), out["rejects"])
    sd.finish("key", out["counts"].to_dict(), part, seconds=1.0)


def _build(tmp_path: Path) -> Runner:
    """A build folder: generators (for the shard names), filters, and two uniqueness shards."""
    cfg = load_build_config(None, [f"out_dir={tmp_path}", "runner.shard_size=2"])
    build = Runner(MERCURY, cfg)
    slugs = sorted(s for shard in SHARDS.values() for s in shard)
    gen = build.dir("generators")
    gen.path.mkdir(parents=True)
    write_jsonl(gen.records(), [{"task": {"slug": s}} for s in slugs])
    assert build.shard_names() == list(SHARDS)

    tasks = [_task("kept"), _task("paid", isPaidOnly=True), _task("lonely")]
    sols = _sols(3, "kept") + _sols(2, "paid") + _sols(1, "lonely")
    _finish(build.dir("filters"), filter_stage(tasks, sols, min_solutions_=2))
    for part, answers in SHARDS.items():
        t, s, r = _uniqueness_inputs(answers)
        out = uniqueness_shard(t, s, r, tol=1e-9, min_solutions_=2)
        _finish(build.dir("uniqueness"), out, part)
    return build


def test_funnel_counts_the_solutions_lost_with_a_dropped_task(tmp_path):
    funnel = {row["stage"]: row for row in _build(tmp_path).funnel()}
    uq = funnel["uniqueness"]
    assert uq["drops"] == {"ambiguous-output": 1, "wrong-answer": 1}  # the stage's own units
    assert uq["drop_tasks"] == {"ambiguous-output": 1}
    assert uq["drop_solutions"] == {"ambiguous-output": 4, "wrong-answer": 1}
    # every solution that went in and did not come out is in the rejects, and counted
    assert uq["solutions_in"] - uq["solutions_out"] == sum(uq["drop_solutions"].values()) == 5
    assert drops_summary(uq) == "ambiguous-output: 1 task (4 solutions); wrong-answer: 1 solution"

    filters = funnel["filters"]
    assert filters["drop_tasks"] == {"min-solutions": 1, "paid-only": 1}
    assert filters["drop_solutions"] == {"min-solutions": 1, "paid-only": 2}
    assert drops_summary(filters) == (
        "min-solutions: 1 task (1 solution); paid-only: 1 task (2 solutions)"
    )


def test_an_unfinished_shard_is_not_counted(tmp_path):
    build = _build(tmp_path)
    build.dir("uniqueness").manifest_path("shard-0001").unlink()  # its rejects stay on disk
    (uq,) = [r for r in build.funnel() if r["stage"] == "uniqueness"]
    assert uq["drop_solutions"] == {"ambiguous-output": 4}


def test_a_reject_row_says_what_was_dropped_and_the_counts_follow():
    """The DPE candidates stage drops samples naming a task that is not in the snapshots (rows
    that look like tasks), the testcases stage inputs and generator failures: each row says what
    it is, as the code that dropped it said, and the counts are per kind."""
    ctx = Context("x")
    ctx.drop({"slug": "no-such-task"}, "unknown-task", "samples.jsonl:3", dropped="solution")
    ctx.drop({"slug": "t", "input": [1], "seed": 3}, "input-type-mismatch", "t", dropped="input")
    ctx.drop({"slug": "t", "seed": 4}, "generator-error", "t", dropped="input")
    sol = Solution(slug="t", hash=5, code="x")
    ctx.drop(TaskRecord(task=Task(slug="t"), solutions=[sol]), "too-few-cases", "t: 2")
    assert [(r["slug"], r["dropped"], r["reason"]) for r in ctx.rejects] == [
        ("no-such-task", "solution", "unknown-task"),
        ("t", "input", "input-type-mismatch"),
        ("t", "input", "generator-error"),
        ("t", "task", "too-few-cases"),
        ("t", "solution", "too-few-cases"),
    ]
    assert ctx.kinds == {
        "task": {"too-few-cases": 1},
        "solution": {"unknown-task": 1, "too-few-cases": 1},
        "input": {"input-type-mismatch": 1, "generator-error": 1},
    }
    assert drop_text("unknown-task", 1, 0, 1) == "unknown-task: 1 solution"


def test_a_record_that_is_not_typed_must_say_what_it_is():
    with pytest.raises(ValueError, match="dropped="):
        Context("x").drop({"slug": "t", "input": [1]}, "invalid-input", "t")


def test_a_solution_listed_again_with_its_task_counts_once_for_its_first_reason():
    """The testcases stage lists a solution that does not load, then again when its task is
    dropped: one solution lost, because it did not load."""
    a, b = Solution(slug="t", hash=1, code="a"), Solution(slug="t", hash=2, code="b")
    other = Solution(slug="u", hash=1, code="a")
    ctx = Context("testcases")
    ctx.drop(a, "does-not-load", "t #0")
    ctx.drop(TaskRecord(task=Task(slug="t"), solutions=[a, b]), "too-few-cases", "t: 1")
    ctx.drop(TaskRecord(task=Task(slug="u"), solutions=[other]), "too-few-cases", "u: 1")
    assert ctx.kinds["solution"] == {"does-not-load": 1, "too-few-cases": 2}
    assert ctx.kinds["task"] == {"too-few-cases": 2}
    assert len(ctx.rejects) == 6  # every row is written


def test_load_counts_the_solutions_of_a_duplicate_question(tmp_path):
    code = "class Solution:\n    def f(self, nums):\n        return {}\n"
    snap = _snapshot("alpha", [{"code": code.format(i), "source": "bundled"} for i in range(3)])
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "alpha.json").write_text(json.dumps(snap))
    out = load_stage([tmp_path / "a", tmp_path / "b"])
    c: StageCounts = out["counts"]
    assert c.drop_tasks == {"duplicate-question": 1}
    assert c.drop_solutions == {"duplicate-question": 3}
    assert [r["dropped"] for r in out["rejects"]] == ["task", "solution", "solution", "solution"]
    assert c.solutions_in - c.solutions_out == 3


def test_dpe_selection_counts_the_profiled_solutions_of_a_dropped_task():
    sols = [
        {"hash": h, "code": f"# {h}\n", "cost": 1e6 * h, "cv": 0.0, "cv_classic": 0.0}
        for h in (1, 2, 3)
    ]
    rec = {"slug": "t", "unit": "instructions", "meter": "icount", "machine_id": "m"}
    out = select_stage([{**rec, "solutions": sols}], [], SelectionSection(min_solutions=5))
    c = out["counts"]
    assert c.drop_tasks == {"too-few-solutions": 1} and c.drop_solutions == {"too-few-solutions": 3}
    assert {r["hash"] for r in out["rejects"] if "hash" in r} == {1, 2, 3}


def _funnel_with_notes(tmp_path: Path) -> list[dict[str, Any]]:
    funnel = _build(tmp_path).funnel()
    funnel.append(
        {
            **StageCounts("publish", 3, 2, 9, 6, notes=["train: no task; left out"]).to_dict(),
            "drop_tasks": {},
            "drop_solutions": {},
        }
    )
    return funnel


def test_the_printed_table_and_the_artifacts_say_tasks_and_solutions(tmp_path):
    funnel = _funnel_with_notes(tmp_path)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    print_funnel(funnel, title="Mercury build", console=console)
    text = console.file.getvalue()
    assert "ambiguous-output: 1 task (4 solutions)" in text
    assert "wrong-answer: 1 solution" in text
    assert "publish: train: no task; left out" in text  # the publish notes follow the table

    rows = {r["stage"]: r for r in funnel_rows(funnel)}
    # one reason per line, the long column last (a rendered table does not wrap its cells)
    assert list(rows["uniqueness"]) == [
        "stage", "tasks (in → out)", "solutions (in → out)", "seconds", "dropped (reason: count)"
    ]  # fmt: skip
    assert rows["uniqueness"]["tasks (in → out)"] == "3 → 2"
    assert rows["uniqueness"]["solutions (in → out)"] == "11 → 6"
    assert rows["uniqueness"]["dropped (reason: count)"] == (
        "ambiguous-output: 1 task (4 solutions)\nwrong-answer: 1 solution"
    )
    markdown = funnel_markdown(funnel, tmp_path)
    assert (
        "| uniqueness | 3 | 2 | 11 | 6 | 2.0 | ambiguous-output: 1 task (4 solutions)<br>"
        "wrong-answer: 1 solution |" in markdown
    ), markdown
    assert "- publish: train: no task; left out" in markdown


def test_drop_totals_over_stages():
    funnel = [
        {"drops": {"min-solutions": 1, "syntax-error": 2}, "drop_tasks": {"min-solutions": 1},
         "drop_solutions": {"min-solutions": 1, "syntax-error": 2}},
        {"drops": {"min-solutions": 2, "invalid-input": 4}, "drop_tasks": {"min-solutions": 2},
         "drop_solutions": {"min-solutions": 5}},
    ]  # fmt: skip
    assert drop_totals(funnel) == [
        {"reason": "min-solutions", "tasks": 3, "solutions": 6, "other": 0},
        {"reason": "invalid-input", "tasks": 0, "solutions": 0, "other": 4},
        {"reason": "syntax-error", "tasks": 0, "solutions": 2, "other": 0},
    ]


def test_the_funnel_fits_80_columns_without_cutting_a_name(tmp_path):
    funnel = _funnel_with_notes(tmp_path)
    funnel.append(
        {
            **StageCounts("pe_profile", 30, 28, 300, 250).to_dict(),
            "drops": {"exact-duplicate": 40, "slower-than-peers": 10},
            "drop_tasks": {},
            "drop_solutions": {"exact-duplicate": 40, "slower-than-peers": 10},
        }
    )
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_funnel(funnel, title="DPE build", console=console)
    text = console.file.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80, text
    for row in funnel:
        assert f"│ {row['stage']} " in text  # every stage name whole
    flat = " ".join(text.split())  # the lines after the table wrap at 80 columns
    assert (
        "dropped at pe_profile: exact-duplicate: 40 solutions; slower-than-peers: 10 solutions"
        in flat
    )
    assert (
        "dropped at uniqueness: ambiguous-output: 1 task (4 solutions); wrong-answer: 1 solution"
        in flat
    )


def test_table_artifact_cells_render_as_they_read():
    """The Prefect UI renders a table artifact's cells as Markdown (quicksilver/orchestration/artifacts.py)."""
    from quicksilver.orchestration.artifacts import ui_cell, ui_rows

    assert ui_cell("-") == "\\-"  # not an empty bullet
    assert ui_cell("+ x") == "\\+ x" and ui_cell("* x") == "\\* x"
    assert ui_cell("# heading") == "\\# heading" and ui_cell("> quote") == "\\> quote"
    assert ui_cell("1. first") == "1\\. first"
    assert ui_cell("a-b - c") == "a-b - c" and ui_cell("min-solutions: 1") == "min-solutions: 1"
    assert ui_cell("a: 1\nb: 2\n-") == "a: 1<br>b: 2<br>\\-"
    assert ui_cell(3) == 3 and ui_cell(2.5) == 2.5 and ui_cell(None) is None
    assert ui_rows([{"stage": "load", "dropped": "-", "n": 1}]) == [
        {"stage": "load", "dropped": "\\-", "n": 1}
    ]
