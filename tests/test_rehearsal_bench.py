"""bench/rehearsal.py's arithmetic on small made-up builds: the stage files' sizes and costs, the
task runs' overhead, and the projection of a full build (nothing here is timed)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import load_bench

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/rehearsal.py as a module."""
    return load_bench("rehearsal")


def _record(slug: str, generator: str | None) -> dict:
    row: dict = {"task": {"slug": slug}, "solutions": [{"slug": slug, "hash": 1, "code": "x"}]}
    if generator is not None:
        row["generator"] = {"generator_code": generator, "generator_path": "offline"}
    return row


def _stage(out: Path, stage: str, rows: list[dict], counts: dict, seconds: float, part: str = ""):
    folder = out / "stages" / stage
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{part}.jsonl" if part else "records.jsonl"
    (folder / name).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    manifest = f"_SUCCESS.{part}.json" if part else "_SUCCESS.json"
    (folder / manifest).write_text(json.dumps({"key": "k", "counts": counts, "seconds": seconds}))


def _counts(tasks_in: int, solutions_in: int, tasks_out: int, solutions_out: int) -> dict:
    return {
        "tasks_in": tasks_in,
        "solutions_in": solutions_in,
        "tasks_out": tasks_out,
        "solutions_out": solutions_out,
    }


def test_stage_costs_sum_shards_and_count_the_generator_bytes(bench, tmp_path):
    out = tmp_path / "build"
    _stage(
        out,
        "generators",
        [_record("a", "g" * 100), _record("b", "h" * 100)],
        _counts(3, 9, 2, 6),
        3.0,
    )
    (out / "stages" / "generators" / "rejects.jsonl").write_text('{"slug": "c"}\n')
    _stage(out, "testcases", [_record("a", "g" * 100)], _counts(1, 4, 1, 4), 2.0, "shard-0000")
    _stage(out, "testcases", [_record("b", None)], _counts(1, 2, 1, 2), 4.0, "shard-0001")
    rows = {r.stage: r for r in bench.stage_costs(out, ["load", "generators", "testcases"])}
    assert set(rows) == {"generators", "testcases"}  # load never ran here
    gen = rows["generators"]
    files = list((out / "stages" / "generators").glob("*.jsonl"))
    assert gen.bytes == sum(p.stat().st_size for p in files)
    one = len(json.dumps(_record("a", "g" * 100)["generator"], sort_keys=True))
    assert gen.generator_bytes == 2 * one  # the rejects file is not counted as records
    assert (gen.per_task, gen.per_solution, gen.bytes_per_task) == (1.0, 3.0 / 9, gen.bytes / 3)
    assert gen.full_bytes == gen.bytes  # nothing refers elsewhere: full copies already
    tc = rows["testcases"]
    assert (tc.seconds, tc.tasks_in, tc.solutions_in, tc.shards) == (6.0, 2, 6, 2)
    assert tc.generator_bytes == one and tc.per_solution == 1.0
    table = bench.stage_table("t", list(rows.values()))
    assert table.row_count == 2


def test_growth_compares_the_stages_both_sizes_ran(bench):
    def cost(stage, seconds, tasks):
        return bench.StageCost(stage, seconds, tasks, 2 * tasks, tasks, tasks, 1000 * tasks, 0, 1)

    half = [cost("load", 5.0, 250)]
    full = [cost("load", 20.0, 500), cost("dedup", 1.0, 500)]
    assert full[0].per_task / half[0].per_task == pytest.approx(2.0)  # a quadratic stage
    assert bench.growth_table(half, full).row_count == 1  # dedup: not in the smaller build


def test_per_unit_adds_each_stage_over_what_went_into_it(bench):
    rows = [
        bench.StageCost("testcases", 10.0, 5, 20, 4, 16, 0, 0, 2),
        bench.StageCost("uniqueness", 4.0, 4, 16, 4, 12, 0, 0, 2),
        bench.StageCost("publish", 1.0, 4, 12, 4, 12, 0, 0, 1),
    ]
    assert bench.per_unit(rows, bench.SHARDED, "solution") == pytest.approx(10 / 20 + 4 / 16)
    assert bench.per_unit(rows, bench.AFTER, "task") == pytest.approx(1 / 4)
    assert bench.per_unit([], bench.SHARDED, "task") == 0.0


def test_the_projection_is_its_stated_model(bench):
    proj = bench.Projection(
        cheap_per_task=0.5,
        sharded_per_solution=2.0,
        after_per_task=0.1,
        prefect_per_run=0.02,
        shard_overhead=0.3,
        tasks=10,
        solutions=100,
        shard_size=4,
    )
    assert proj.shards == 3  # ten tasks, four a shard
    assert proj.task_runs == 4 + 2 + 3 * 3  # cheap stages, splits and publish, shard-stage runs
    for n in (1, 2, 8):
        expected = 0.5 * 10 + 2.0 * 100 / n + 0.3 * 3 * 3 / n + 0.1 * 10 + 0.02 * 15
        assert proj.wall(n) == pytest.approx(expected)
    assert proj.wall(1) > proj.wall(2) > proj.wall(8)
    assert bench.projection_table(proj).row_count == len(bench.PLAN_WORKERS)
    # a shard's input cost measured at 500 tasks, at 1,889
    assert bench.scaled_overhead(0.2, 500) == pytest.approx(0.2 * 1889 / 500)
    assert bench.scaled_overhead(0.2, 0) == 0.0


def test_task_run_overhead_is_its_wall_less_the_stage_seconds(bench, tmp_path):
    out = tmp_path / "build"
    _stage(out, "load", [], _counts(1, 1, 1, 1), 2.0)
    _stage(out, "testcases", [], _counts(1, 1, 1, 1), 5.0, "shard-0003")
    runs = [
        ("mercury-load-a1f", 100.0, 102.5),
        ("testcases-shard-0003", 200.0, 205.25),
        ("uniqueness-shard-0003", 300.0, 301.0),  # no manifest: not counted
        ("mercury-dedup-0bc", 400.0, None),  # not finished
    ]
    assert bench.task_run_overheads(runs, out) == pytest.approx([0.5, 0.25])


def test_the_memory_sampler_names_each_process_by_its_role(bench):
    class Proc:
        def __init__(self, pid, cmd, parents=()):
            self.pid, self.cmd, self._parents = pid, cmd, list(parents)

        def cmdline(self):
            return self.cmd.split()

        def parents(self):
            return self._parents

    bench_proc = Proc(1, "python bench/rehearsal.py")
    server = Proc(2, "/venv/bin/prefect server start --port 1", [bench_proc])
    flow = Proc(3, "python flows/build_mercury.py --config c", [bench_proc])
    worker = Proc(4, "python -c from multiprocessing.spawn import spawn_main", [flow, bench_proc])
    bwrap = Proc(5, "bwrap --die-with-parent", [worker, flow, bench_proc])
    inside = Proc(6, "python harness.py", [bwrap, worker, flow, bench_proc])
    sampler = bench.MemorySampler()
    roles = [sampler.role(p) for p in (server, flow, worker, bwrap, inside)]
    assert roles == ["server", "flow", "worker", "sandbox", "sandbox"]
