"""Adding a stage takes one declaration and its place in a build's list (issue 14).

``TOY`` below is a whole new stage: it drops solutions longer than ``LONGEST`` lines, each with its
reason, then the tasks left with too few solutions. ``TOY_BUILD`` puts it between dedup and
filters. Nothing else is written for it: the runner gives it its folder, its input (dedup's
records), its key, its manifest, its counts and its rejects file; the next stage reads its records;
the funnel shows it; and the Prefect layer runs it as it runs every stage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quicksilver.config import BuildConfig, load_build_config
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.files import read_jsonl
from quicksilver.pipeline.records import TaskRecord
from quicksilver.pipeline.runner import Runner
from quicksilver.pipeline.stage import Context, Stage, enough_solutions, keep_or_drop
from quicksilver.stages import example
from quicksilver.stages.dedup import DEDUP
from quicksilver.stages.filters import FILTERS
from quicksilver.stages.load import LOAD
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
SLUGS = ["best-single-trade", "primes-below", "zeroes-to-end", "cluster-anagrams"]
LONGEST = 12


# --- the new stage: its logic and its declaration --------------------------------------------------


def short_solutions(
    ctx: Context, records: list[TaskRecord], *, min_solutions: int
) -> list[TaskRecord]:
    """Solutions of at most LONGEST lines; then at least ``min_solutions`` per task."""
    out = []
    for record in records:
        kept = []
        for sol in record.solutions:
            lines = sol.code.count("\n")
            if lines > LONGEST:
                ctx.drop(sol, "too-long", f"{sol.slug} solution #{sol.position}: {lines} lines")
            else:
                kept.append(sol)
        out.append(record.with_solutions(kept))
    return keep_or_drop(ctx, out, enough_solutions(min_solutions, when="after the toy stage"))


TOY = Stage("toy", logic=short_solutions, reads=("filters.min_solutions",))

# --- its place in a build ----------------------------------------------------------------------

TOY_BUILD = Build(
    name="toy",
    title="Toy build",
    config=BuildConfig,
    stages=(LOAD, DEDUP, TOY, FILTERS),
    example=example.mercury_record,
)


def _config(out: Path, *sets: str) -> BuildConfig:
    return load_build_config(
        ROOT / "configs" / "mercury.yaml",
        [f"out_dir={out}", f"only={json.dumps(SLUGS)}", *sets],
    ).resolve(ROOT)


def _run_all(runner: Runner) -> dict[str, bool]:
    """Every stage once, in order; which were reused."""
    return {s.name: runner.run(s.name)["reused"] for s in runner.build.stages}


def test_a_toy_stage_runs_from_its_declaration_and_its_place_in_the_list(tmp_path):
    runner = Runner(TOY_BUILD, _config(tmp_path / "out"))
    assert _run_all(runner) == dict.fromkeys(("load", "dedup", "toy", "filters"), False)
    funnel = {row["stage"]: row for row in runner.funnel()}
    assert list(funnel) == ["load", "dedup", "toy", "filters"]
    toy = funnel["toy"]
    # its input is dedup's output, its output is filters' input
    assert toy["tasks_in"] == funnel["dedup"]["tasks_out"]
    assert toy["solutions_in"] == funnel["dedup"]["solutions_out"]
    assert funnel["filters"]["solutions_in"] == toy["solutions_out"]
    # every solution that went in and did not come out is in its rejects, with its reason
    assert toy["drops"]["too-long"] > 0
    assert toy["solutions_in"] - toy["solutions_out"] == sum(toy["drop_solutions"].values())
    rejects = read_jsonl(runner.dir("toy").rejects())
    long = [r for r in rejects if r["reason"] == "too-long"]
    assert long and all("hash" in r and "lines" in r["detail"] for r in long)
    assert all(r["code"].count("\n") > LONGEST for r in long)
    # its records are the next stage's input, and its manifest says it is done
    kept = read_jsonl(runner.dir("toy").records())
    assert all(s["code"].count("\n") <= LONGEST for r in kept for s in r["solutions"])
    assert runner.done("toy")


def test_a_toy_stage_is_reused_and_rerun_like_any_other(tmp_path):
    out = tmp_path / "out"
    runner = Runner(TOY_BUILD, _config(out))
    _run_all(runner)
    assert _run_all(runner) == dict.fromkeys(("load", "dedup", "toy", "filters"), True)
    # the setting it reads changed: it and what follows are redone, what comes before is not
    other = Runner(TOY_BUILD, _config(out, "filters.min_solutions=3"))
    assert _run_all(other) == {"load": True, "dedup": True, "toy": False, "filters": False}
    # a setting only an earlier stage reads: that stage is redone; the toy stage is reused
    # exactly when its input (that stage's records) came out the same
    before = read_jsonl(out / "stages" / "dedup" / "records.jsonl")
    again = Runner(TOY_BUILD, _config(out, "filters.min_solutions=3", "dedup.ngram=4"))
    reused = _run_all(again)
    assert reused["load"] and not reused["dedup"]
    assert reused["toy"] == (read_jsonl(out / "stages" / "dedup" / "records.jsonl") == before)


@requires_bwrap  # the build's preflight tries the sandbox
def test_the_prefect_layer_runs_a_new_build_list_unchanged(prefect_harness, tmp_path):
    from prefect import flow

    from quicksilver.orchestration.build import run_build

    @flow(name="build-toy")
    def build_toy(config: dict[str, Any]) -> dict[str, Any]:
        return run_build(TOY_BUILD, config)

    config = _config(tmp_path / "out").model_dump(mode="json")
    result = build_toy(config)
    assert [row["stage"] for row in result["funnel"]] == ["load", "dedup", "toy", "filters"]
    assert build_toy(config)["funnel"] == result["funnel"]  # a rerun reuses everything


def test_until_names_the_last_stage_to_run():
    assert TOY_BUILD.upto(None) == TOY_BUILD.stages
    assert [s.name for s in TOY_BUILD.upto("toy")] == ["load", "dedup", "toy"]
    with pytest.raises(ValueError, match="until='publish' names no stage; its stages are load"):
        TOY_BUILD.check_settings(_config(Path("out"), "until=publish"))


@requires_bwrap  # the build's preflight tries the sandbox
def test_the_prefect_layer_stops_after_until(prefect_harness, tmp_path):
    from prefect import flow

    from quicksilver.orchestration.build import run_build

    @flow(name="build-toy-until")
    def build_toy(config: dict[str, Any]) -> dict[str, Any]:
        return run_build(TOY_BUILD, config)

    out = tmp_path / "out"
    result = build_toy(_config(out, "until=dedup").model_dump(mode="json"))
    assert [row["stage"] for row in result["funnel"]] == ["load", "dedup"]
    assert not (out / "stages" / "toy").exists() and not (out / "stages" / "filters").exists()
    # the whole build afterwards reuses what the shorter one did
    whole = build_toy(_config(out).model_dump(mode="json"))
    assert [row["stage"] for row in whole["funnel"]] == ["load", "dedup", "toy", "filters"]
    assert whole["funnel"][:2] == result["funnel"]


def _echo(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    return records


SHARD_TOY = Stage("shardtoy", logic=_echo, sharded=True)
SHARDED_BUILD = Build(
    name="toy",
    title="Toy build, sharded",
    config=BuildConfig,
    stages=(LOAD, DEDUP, SHARD_TOY),
    example=example.mercury_record,
)


def test_a_shard_reads_only_its_tasks_lines_by_the_index(tmp_path, monkeypatch):
    from quicksilver.pipeline import files
    from quicksilver.pipeline import runner as runner_module

    out = tmp_path / "out"
    runner = Runner(SHARDED_BUILD, _config(out, "runner.shard_size=3"))
    runner.run("load")
    runner.run("dedup")
    dedup = runner.dir("dedup").records()
    index = files.read_index(dedup)
    assert index is not None and sorted(index) == sorted(SLUGS)
    whole = read_jsonl(dedup)
    assert [dedup.read_bytes()[a : a + n] for a, n in index.values()] == [
        line.encode() for line in dedup.read_text().splitlines(keepends=True)
    ]
    parts = runner.shards()
    assert [len(slugs) for _, slugs in parts] == [3, 1]

    def no_whole_reads(path: Path) -> list[dict[str, Any]]:
        raise AssertionError(f"read every line of {path}")

    monkeypatch.setattr(runner_module, "read_jsonl", no_whole_reads)
    fresh = Runner(SHARDED_BUILD, _config(out, "runner.shard_size=3"))
    for part, slugs in parts:
        got = [r.row() for r in fresh.read_input(SHARD_TOY, part)]
        assert got == [row for row in whole if row["task"]["slug"] in slugs]  # the file's order
    monkeypatch.undo()
    # a file changed after its index was written: the index is not trusted, the file is read
    dedup.write_text("".join(json.dumps(row) + "\n" for row in whole[:2]))
    assert files.read_index(dedup) is None
    kept = {row["task"]["slug"] for row in whole[:2]}
    again = Runner(SHARDED_BUILD, _config(out, "runner.shard_size=3"))
    assert {s for _, slugs in again.shards() for s in slugs} == kept
    for part, slugs in again.shards():
        assert {r.slug for r in again.read_input(SHARD_TOY, part)} == set(slugs) & kept
    # rows that share a name get no index
    files.write_jsonl(tmp_path / "twice.jsonl", [{"n": "a"}, {"n": "a"}], index_by=lambda r: r["n"])
    assert files.read_index(tmp_path / "twice.jsonl") is None


def test_a_shard_is_keyed_by_its_own_tasks_lines(tmp_path):
    from quicksilver.pipeline import files
    from quicksilver.pipeline.runner import read_records, write_records

    out = tmp_path / "out"

    def keys() -> dict[str, str]:
        fresh = Runner(SHARDED_BUILD, _config(out, "runner.shard_size=3"))
        return {part: fresh.key("shardtoy", part) for part in fresh.shard_names()}

    runner = Runner(SHARDED_BUILD, _config(out, "runner.shard_size=3"))
    runner.run("load")
    runner.run("dedup")
    before = keys()
    dedup = runner.dir("dedup").records()
    # the same keys without the index (the file read whole to find the shard's lines)
    index = files.index_path(dedup)
    index.rename(index.with_name("aside"))
    assert keys() == before
    index.with_name("aside").rename(index)
    # one task of the last shard changes: that shard's key changes, the others' do not
    last, slugs = runner.shards()[-1]
    records = read_records(dedup)
    changed = [r.with_solutions(r.solutions[:1]) if r.slug == slugs[0] else r for r in records]
    write_records(dedup, changed)
    after = keys()
    assert after[last] != before[last]
    assert {p: k for p, k in after.items() if p != last} == {
        p: k for p, k in before.items() if p != last
    }


@pytest.mark.parametrize("stage", [TOY])
def test_the_declaration_names_its_code(stage):
    """Its key covers this file (the logic's module) and what it imports."""
    assert stage.code == (__name__,)
