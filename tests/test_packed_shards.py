"""A stage that packs its shards anew (issue 29 item 1): Mercury's profile stage is sharded by the
work its input says each task will cost, not in slug order with the stages before it, so one
heavy task is no long pole beside three others.

A small build without a sandbox: load and dedup on four bundled questions, ``gen`` (fills
``generator``), ``cases`` (sharded in slug order: gives each solution its ``native_seconds``, one
task ten times the others), ``packed`` (sharded, packs by those seconds) and ``join``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quicksilver.config import BuildConfig, load_build_config
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.records import Generator, Solution, TaskRecord
from quicksilver.pipeline.runner import Runner, pack_shards, read_records, write_records
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.stages import example
from quicksilver.stages.dedup import DEDUP
from quicksilver.stages.load import LOAD
from quicksilver.stages.profile import PROFILE
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
SLUGS = ["best-single-trade", "cluster-anagrams", "primes-below", "zeroes-to-end"]
HEAVY = "primes-below"
SEEN: dict[str, list[str]] = {}  # packed's shard -> the slugs it read


def gen(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    code = "def generate():\n    pass\n"
    return [
        r.with_solutions(
            r.solutions, generator=Generator(generator_code=code, generator_path="offline")
        )
        for r in records
    ]


def cases(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    out = []
    for r in records:
        seconds = 10.0 if r.slug == HEAVY else 0.1
        sols = [s.model_copy(update={"native_seconds": seconds}) for s in r.solutions]
        out.append(r.with_solutions(sols))
    return out


def packed(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    SEEN[ctx.part] = [r.slug for r in records]
    return records


def join(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    return [r.with_solutions(r.solutions, split="train") for r in records]


def _seconds(solutions: list[Solution]) -> float:
    return sum(s.native_seconds or 0.0 for s in solutions)


GEN = Stage("gen", logic=gen, fills=("generator",))
CASES = Stage("cases", logic=cases, sharded=True, needs=("generator",))
PACKED = Stage("packed", logic=packed, sharded=True, packs=_seconds)
JOIN = Stage("join", logic=join, fills=("split",))
PACKED_BUILD = Build(
    name="packed",
    title="Packed shards",
    config=BuildConfig,
    stages=(LOAD, DEDUP, GEN, CASES, PACKED, JOIN),
    example=example.mercury_record,
)


def _config(out: Path) -> BuildConfig:
    return load_build_config(
        ROOT / "configs" / "mercury.yaml",
        [f"out_dir={out}", f"only={json.dumps(SLUGS)}", "runner.shard_size=2"],
    ).resolve(ROOT)


def _run_all(runner: Runner) -> dict[str, bool]:
    """Every stage (every shard of it, its own shards) in order; which were reused."""
    reused = {}
    for stage in runner.build.stages:
        for part in runner.shard_names(stage) if stage.sharded else [""]:
            reused[f"{stage.name}/{part}"] = runner.run(stage.name, part)["reused"]
    return reused


def test_the_packing_puts_the_heaviest_alone_and_is_the_same_every_time():
    work = {"a": 10.0, "b": 1.0, "c": 1.0, "d": 1.0, "e": 0.5, "f": 0.5}
    assert pack_shards(work, 3) == [["a"], ["b", "c", "d", "e", "f"]]
    assert pack_shards(work, 2) == [["a"], ["b", "d"], ["c", "e", "f"]]
    # as many shards as shard_size makes; tasks that cost nothing spread by count
    free = {f"t{i}": 0.0 for i in range(8)}
    assert [len(s) for s in pack_shards(free, 2)] == [2, 2, 2, 2]
    assert pack_shards({}, 4) == []
    # the order of the mapping does not matter; ties are broken by slug
    assert pack_shards(dict(reversed(list(work.items()))), 2) == pack_shards(work, 2)
    # longest processing time first: within 4/3 of the best packing's heaviest shard
    many = {f"t{i:02d}": float((i * 37) % 11 + 1) for i in range(40)}
    shards = pack_shards(many, 4)
    loads = [sum(many[s] for s in shard) for shard in shards]
    assert len(shards) == 10 and sorted(s for sh in shards for s in sh) == sorted(many)
    assert max(loads) <= 4 / 3 * max(sum(many.values()) / 10, max(many.values()))


def test_mercury_profile_packs_its_shards_by_the_test_cases_cpu():
    assert PROFILE.packs is not None
    sols = [
        Solution(slug="x", position=i, hash=i, code="", native_seconds=s)
        for i, s in enumerate([2, 3])
    ]
    assert PROFILE.packs(sols) == pytest.approx(5.1)  # and 0.05 s per solution's start


@pytest.fixture
def built(tmp_path: Path) -> Runner:
    SEEN.clear()
    runner = Runner(PACKED_BUILD, _config(tmp_path / "out"))
    assert not any(_run_all(runner).values())
    return runner


def test_a_packing_stage_has_shards_of_its_own_read_from_every_shard_before(built: Runner):
    runner = built
    assert [[s.name for s in g] for g in runner.groups()] == [["cases"], ["packed"]]
    assert runner.shards("cases") == [("shard-0000", SLUGS[:2]), ("shard-0001", SLUGS[2:])]
    others = [s for s in SLUGS if s != HEAVY]
    assert runner.shards("packed") == [("shard-0000", [HEAVY]), ("shard-0001", others)]
    assert {"shard-0000": [HEAVY], "shard-0001": others} == SEEN
    # each shard read whole records, as cases returned them, references put back
    cased = {
        r.slug: r
        for part in runner.shard_names("cases")
        for r in read_records(runner.dir("cases").records(part))
    }
    by_slug = {slug: r.row() for slug, r in cased.items()}
    # the scheduler's estimate of a packed shard is what it was packed by
    work = {slug: 0.1 * len(r.solutions) for slug, r in cased.items()} | {
        HEAVY: 10.0 * len(cased[HEAVY].solutions)
    }
    assert runner.shard_work("shard-0000", "packed") == pytest.approx(work[HEAVY])
    assert runner.shard_work("shard-0001", "packed") == pytest.approx(sum(work[s] for s in others))
    for part, slugs in runner.shards("packed"):
        got = read_records(runner.dir("packed").records(part))
        assert [r.row() for r in got] == [by_slug[s] for s in slugs]
    # the stage after reads every packed shard
    assert sorted(r.slug for r in read_records(runner.dir("join").records())) == SLUGS


def test_a_changed_task_redoes_only_the_packed_shard_that_holds_it(built: Runner, tmp_path: Path):
    fresh = Runner(PACKED_BUILD, _config(tmp_path / "out"))
    assert all(_run_all(fresh).values())  # everything reused
    before = {p: fresh.key("packed", p) for p in fresh.shard_names("packed")}
    # one light task's record in cases changes (not its seconds: the packing stays)
    path = fresh.dir("cases").records("shard-0000")
    records = read_records(path)
    changed = [r.with_solutions(r.solutions[:1]) if r.slug == SLUGS[0] else r for r in records]
    write_records(path, changed)
    again = Runner(PACKED_BUILD, _config(tmp_path / "out"))
    after = {p: again.key("packed", p) for p in again.shard_names("packed")}
    assert after["shard-0000"] == before["shard-0000"]  # the heavy task's shard
    assert after["shard-0001"] != before["shard-0001"]


@requires_bwrap  # the build's preflight tries the sandbox
def test_the_prefect_layer_runs_the_packed_stage_after_the_run_before_it(
    prefect_harness: Any, tmp_path: Path
):
    from prefect import flow

    from quicksilver.orchestration.build import run_build

    @flow(name="build-packed")
    def build_packed(config: dict[str, Any]) -> dict[str, Any]:
        return run_build(PACKED_BUILD, config)

    SEEN.clear()
    out = tmp_path / "out"
    result = build_packed(_config(out).model_dump(mode="json"))
    assert [row["stage"] for row in result["funnel"]] == [s.name for s in PACKED_BUILD.stages]
    assert {"shard-0000": [HEAVY], "shard-0001": [s for s in SLUGS if s != HEAVY]} == SEEN
    done = sorted(p.name for p in (out / "stages" / "packed").glob("_SUCCESS.*.json"))
    assert done == ["_SUCCESS.shard-0000.json", "_SUCCESS.shard-0001.json"]


def test_files_of_shards_no_longer_made_are_removed(built: Runner):
    folder = built.dir("packed").path
    for name in ("shard-0007.jsonl", "shard-0007.index.json", "_SUCCESS.shard-0007.json"):
        (folder / name).write_text("{}\n")
    (folder / "notes.txt").write_text("a stage's own file stays\n")
    gone = built.prune_shards("packed")
    assert sorted(p.name for p in gone) == [
        "_SUCCESS.shard-0007.json",
        "shard-0007.index.json",
        "shard-0007.jsonl",
    ]
    assert (folder / "notes.txt").exists() and built.done("packed", "shard-0000")
    assert built.done("packed", "shard-0001") and built.prune_shards("packed") == []
